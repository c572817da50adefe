import { z } from 'zod';
import { badRequest } from '../errors.js';
import { roundUsd } from '../util.js';
import { count, handler } from './direct.js';
import { fetchPage, type Page, urlProblem } from './pages.js';
import { CREDIT_USD, credits, URL_SCRAPE_STEALTH_USD, URL_SCRAPE_USD } from './pricing.js';

/** url.scrape (direct `/api/scrape-urls`, GAPS "Data API inputs") and the crawler. */
const MAX_SCRAPE_URLS = 5;

export const urlScrape = handler(
  z
    .object({
      urls: z
        .array(z.string())
        .min(1, 'give at least one URL')
        .max(MAX_SCRAPE_URLS, `at most ${MAX_SCRAPE_URLS} URLs per request`)
        .describe(
          'Public http(s) URLs on standard ports; no localhost, private or metadata hosts, no video sites.',
        ),
      stealth: z
        .boolean()
        .optional()
        .describe('Stealth mode for sites that block scrapers; costs more per URL.'),
      mode: z.enum(['standard', 'stealth']).optional().describe('Same as `stealth: true` when "stealth".'),
    })
    .describe('Scrapes each URL to markdown; charged per successfully scraped URL.'),
  (input) => {
    const perUrl =
      input.stealth === true || input.mode === 'stealth' ? URL_SCRAPE_STEALTH_USD : URL_SCRAPE_USD;
    const results = input.urls.map((url) => {
      const problem = urlProblem(url);
      return problem ? { url, success: false, rejected: true, error: problem } : fetchPage(url);
    });
    const processed = results.filter((r) => !('rejected' in r));
    if (processed.length === 0) {
      throw badRequest(
        `No URL can be scraped: ${results.map((r) => `${r.url} (${r.error})`).join('; ')}.`,
        'invalid_parameter_value',
        'urls',
      );
    }
    const successful = processed.filter((r) => r.success).length;
    const totalCost = roundUsd(successful * perUrl);
    return {
      costUsd: totalCost,
      body: {
        results: results.map(({ url, success, error, ...page }) => ({
          url,
          success,
          ...(success && 'title' in page
            ? { title: page.title, content: page.content, markdown: page.markdown }
            : {}),
          ...(error ? { error } : {}),
        })),
        summary: {
          requested: results.length,
          processed: processed.length,
          successful,
          failed: results.length - successful,
          totalCost,
        },
      },
    };
  },
);

const pathRule = z.array(z.string()).optional();

export const crawler = handler(
  z
    .object({
      url: z.string().describe('Start URL; the crawl stays on its host.'),
      maxPages: count(1, 50, 5).describe('Most pages to crawl (1..50, default 5).'),
      maxDepth: count(0, 3, 2).describe('Most links away from the start URL (0..3, default 2).'),
      includePaths: pathRule.describe(
        'Only crawl paths starting with one of these (a trailing * is allowed).',
      ),
      excludePaths: pathRule.describe('Never crawl paths starting with one of these.'),
    })
    .describe('Crawls breadth-first; the reply streams in as pages are crawled.'),
  (input) => {
    const problem = urlProblem(input.url);
    if (problem) throw badRequest(`\`url\` cannot be crawled: ${problem}.`, 'invalid_parameter_value', 'url');
    const pages = crawl(input.url, input.maxPages, input.maxDepth, input.includePaths, input.excludePaths);
    const crawled = pages.filter((p) => p.success).length;
    const totalCost = credits(crawled);
    return {
      costUsd: totalCost,
      credits: crawled,
      streamKey: 'pages',
      body: {
        url: input.url,
        pages: pages.map(({ links: _links, ...page }) => page),
        summary: {
          requested: input.maxPages,
          crawled,
          failed: pages.length - crawled,
          credits: crawled,
          creditUsd: CREDIT_USD,
          totalCost,
        },
      },
    };
  },
);

function crawl(
  start: string,
  maxPages: number,
  maxDepth: number,
  include: string[] | undefined,
  exclude: string[] | undefined,
): (Page & { depth: number })[] {
  const matches = (path: string, rules: string[]) =>
    rules.some((rule) => path.startsWith(rule.replace(/(?<!\*)\*+$/, '')));
  const allowed = (url: string) => {
    const path = new URL(url).pathname;
    return (!include?.length || matches(path, include)) && !(exclude?.length && matches(path, exclude));
  };
  const seen = new Set([start]);
  const queue = [{ url: start, depth: 0 }];
  const pages: (Page & { depth: number })[] = [];
  while (queue.length > 0 && pages.length < maxPages) {
    const { url, depth } = queue.shift()!;
    const page = fetchPage(url);
    pages.push({ ...page, depth });
    if (depth >= maxDepth) continue;
    for (const link of page.links ?? []) {
      if (!seen.has(link) && allowed(link)) {
        seen.add(link);
        queue.push({ url: link, depth: depth + 1 });
      }
    }
  }
  return pages;
}
