import { ApiError } from './api-error.js';

/**
 * How far a list is paged. A list's first answer says how many pages it has (NG's `totalPages`/`totalItems`,
 * Spring's `totalPages`/`totalElements`: platform-facts-3.md §3); paging stops with an error past that plus a
 * margin, and past a hard cap whatever the answers say. Without it, a platform (or something in front of it) that
 * answers full pages forever, or a total that grows with every page, kept pull paging until it was killed.
 */

/**
 * Pages of one list, at most, whatever its answers announce: 1000 pages of 100 items (the largest page the
 * services answer) is 100,000 resources of one kind in one scope, far past any estate seen, and at the platform's
 * 1000 requests a minute per key already a minute of paging for one list.
 */
export const MAX_LIST_PAGES = 1000;

/**
 * Pages read beyond what the first answer announced: items created while a list is paged push others onto later
 * pages, so a list may run a little past its first total. 10% of the announced pages, and at least 2.
 */
const pageMargin = (announced: number): number => Math.max(2, Math.ceil(announced / 10));

export interface PageTotals {
  readonly totalPages?: number;
  readonly totalItems?: number;
}

export class PageBound {
  readonly #request: string;
  readonly #cap: number;
  #limit: number | undefined;
  #announced: string | undefined;

  /** `request` names the list in the error (`GET /ng/api/servicesV2`); `cap` is the hard cap (tests lower it). */
  constructor(request: string, cap: number = MAX_LIST_PAGES) {
    this.#request = request;
    this.#cap = Math.max(1, Math.floor(cap));
  }

  /**
   * Called after page `index` (from 0) was read and the list goes on: throws when page `index + 1` would be past
   * the bound set by the first page's totals (`size` items per page).
   */
  next(index: number, page: PageTotals, size: number): void {
    if (index === 0) {
      const pages =
        page.totalPages ?? (page.totalItems !== undefined ? Math.ceil(page.totalItems / Math.max(1, size)) : undefined);
      this.#limit = pages === undefined ? this.#cap : Math.min(this.#cap, pages + pageMargin(pages));
      this.#announced =
        pages === undefined
          ? 'its first answer announced no total'
          : `its first answer announced ${pages} page${pages === 1 ? '' : 's'}`;
    }
    const limit = this.#limit ?? this.#cap;
    if (index + 1 < limit) return;
    throw new ApiError(
      `the list ${this.#request} did not end within ${limit} pages (${this.#announced}${limit === this.#cap ? `; ${this.#cap} pages is the most pipewright reads of one list` : ', and a few more are allowed for items added meanwhile'}): the platform kept answering more pages, so paging stopped and nothing was read from this list`,
      { kind: 'rejected', request: this.#request },
    );
  }
}
