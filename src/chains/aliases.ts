// avalanchego's ids.Aliaser: every chain has an ordered list of aliases, its primary alias first.
export class AliasError extends Error {}

export class Aliaser {
  private readonly byAlias = new Map<string, string>();
  private readonly byId = new Map<string, string[]>();

  lookup(alias: string): string {
    const id = this.byAlias.get(alias);
    if (id === undefined) throw new AliasError(`there is no ID with alias: ${alias}`);
    return id;
  }

  has(alias: string): boolean {
    return this.byAlias.has(alias);
  }

  alias(id: string, alias: string): void {
    if (this.byAlias.has(alias)) throw new AliasError(`alias already mapped to an ID: ${alias}`);
    this.byAlias.set(alias, id);
    const list = this.byId.get(id);
    if (list) list.push(alias);
    else this.byId.set(id, [alias]);
  }

  /** null for an ID with no aliases, as Go's nil slice marshals. */
  aliases(id: string): string[] | null {
    const list = this.byId.get(id);
    return list ? [...list] : null;
  }

  primaryAlias(id: string): string {
    const list = this.byId.get(id);
    if (!list) throw new AliasError(`there is no alias for ID: ${id}`);
    return list[0]!;
  }
}
