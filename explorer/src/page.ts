// What the router hands a page: where to render, the URL's parts, and a way to stay live.
export interface PageCtx {
  view: HTMLElement;
  params: string[];
  query: URLSearchParams;
  /** Runs `fn` every ~2 s while the page is shown (new blocks without a reload). */
  live(fn: () => Promise<void>): void;
  title(text: string): void;
  /** Replaces the URL (search results that resolve to one page). */
  redirect(path: string): void;
}
