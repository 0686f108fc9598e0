// avalanchego's VM manager and plugin registry (vms/registry). The primary VMs are built in; files
// in --plugin-dir named by a VM ID or alias are plugins. The emulator runs the plugins it implements
// itself (Subnet-EVM) and reports the others as the real node reports a plugin it cannot start.
import { constants } from 'node:fs';
import type { Dirent } from 'node:fs';
import { access, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { idFromString } from '../encoding/cb58.js';
import { Aliaser } from './aliases.js';
import { FX_IDS, VM_IDS } from './ids.js';
import { goQuote } from '../encoding/goquote.js';

export const NODE_VERSION = 'avalanchego/1.14.2';
export const SUBNET_EVM_VERSION = 'v0.8.0';

/** VMs the emulator can run when their plugin file is present. */
const EMULATED_PLUGINS: Record<string, string> = { [VM_IDS.subnetEvm]: SUBNET_EVM_VERSION };

export class VmError extends Error {}

export interface ReloadResult {
  newVMs: Record<string, string[]>;
  failedVMs: Record<string, string>;
}

export class VmRegistry {
  readonly aliaser = new Aliaser();
  /** VM ID -> version, for every registered VM (a plugin that failed to start has none). */
  private readonly registered = new Map<string, string | undefined>();

  constructor(
    private readonly pluginDir: string,
    fileAliases: Record<string, string[]> = {},
  ) {
    for (const [vmId, aliases] of Object.entries(fileAliases)) for (const a of aliases) this.aliaser.alias(vmId, a);
    this.aliaser.alias(VM_IDS.platform, 'platform');
    this.aliaser.alias(VM_IDS.avm, 'avm');
    this.aliaser.alias(VM_IDS.evm, 'evm');
    for (const [name, id] of Object.entries(FX_IDS)) this.aliaser.alias(id, name);
    this.register(VM_IDS.platform, NODE_VERSION);
    this.register(VM_IDS.avm, NODE_VERSION);
    this.register(VM_IDS.evm, 'v1.14.2');
  }

  static async readAliasesFile(path: string): Promise<Record<string, string[]>> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return {};
    }
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new VmError(`${path} must map VM IDs to alias lists`);
    return parsed as Record<string, string[]>;
  }

  private register(vmId: string, version: string | undefined): void {
    this.aliaser.alias(vmId, vmId);
    this.registered.set(vmId, version);
  }

  isRegistered(vmId: string): boolean {
    return this.registered.has(vmId);
  }

  /** Aliases without the ID string itself ([] when none), as newVMs and getVMs show them. */
  aliasesOf(vmId: string): string[] {
    return (this.aliaser.aliases(vmId) ?? []).filter((a) => a !== vmId);
  }

  /** getVMs: every registered VM, keys sorted as Go sorts map keys. */
  vms(): Record<string, string[]> {
    return Object.fromEntries([...this.registered.keys()].sort().map((id) => [id, this.aliasesOf(id)]));
  }

  /** getNodeVersion's vmVersions: by primary alias, only VMs that reported a version. */
  versions(): Record<string, string> {
    const out: [string, string][] = [];
    for (const [id, version] of this.registered) if (version !== undefined) out.push([this.aliaser.primaryAlias(id), version]);
    return Object.fromEntries(out.sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** VMRegistry.Reload: registers every new plugin file; a file that names no VM fails the whole scan. */
  async reload(): Promise<ReloadResult> {
    let entries: Dirent[];
    try {
      entries = (await readdir(this.pluginDir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new VmError(
        `open ${this.pluginDir}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'ENOTDIR' ? 'not a directory' : (err as Error).message}`,
      );
    }
    const found: [string, string][] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      // Go's filepath.Ext: from the last dot, so ".DS_Store" has no name and is skipped.
      const dot = entry.name.lastIndexOf('.');
      const name = dot < 0 ? entry.name : entry.name.slice(0, dot);
      if (name === '') continue;
      let vmId: string;
      if (this.aliaser.has(name)) vmId = this.aliaser.lookup(name);
      else {
        try {
          idFromString(name);
          vmId = name;
        } catch {
          throw new VmError(`invalid vmID: ${goQuote(name)}`);
        }
      }
      if (!this.isRegistered(vmId) && !found.some(([id]) => id === vmId)) found.push([vmId, join(this.pluginDir, entry.name)]);
    }
    // A plugin that fails to start stays registered (never retried) but is reported only as failed.
    const loaded: string[] = [];
    const failed: [string, string][] = [];
    for (const [vmId, path] of found) {
      const failure = await startFailure(vmId, path);
      this.register(vmId, failure === undefined ? EMULATED_PLUGINS[vmId] : undefined);
      if (failure === undefined) loaded.push(vmId);
      else failed.push([vmId, failure]);
    }
    // Both are Go maps: keys sorted.
    return {
      newVMs: Object.fromEntries(loaded.sort().map((id) => [id, this.aliasesOf(id)])),
      failedVMs: Object.fromEntries(failed.sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }
}

/** Why the plugin at `path` cannot start, in the words the real node uses, or undefined if it runs. */
async function startFailure(vmId: string, path: string): Promise<string | undefined> {
  if (EMULATED_PLUGINS[vmId] !== undefined) return undefined;
  try {
    await access(path, constants.X_OK);
  } catch {
    return `failed to start process: fork/exec ${path}: permission denied`;
  }
  const head = Buffer.alloc(4);
  const file = await open(path, 'r');
  try {
    await file.read(head, 0, 4, 0);
  } finally {
    await file.close();
  }
  const isElf = head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  const isScript = head[0] === 0x23 && head[1] === 0x21;
  if (!isElf && !isScript) return `failed to start process: fork/exec ${path}: exec format error`;
  return 'handshake failed: vm process not found';
}
