/**
 * Data API prices (spec 1 §4.5 pricing notes): web search is usage-based, URL scraping is per URL
 * with a higher stealth price, the rest is credit-based (provider credits plus a markup) or
 * endpoint-specific; two contact endpoints are free.
 */

/** One provider credit (0.001 USD) plus the platform's 20% markup. */
export const CREDIT_USD = 0.0012;
export const URL_SCRAPE_USD = 0.002;
export const URL_SCRAPE_STEALTH_USD = 0.006;

/** Endpoint-specific prices of the contact tools, USD per successful lookup. */
export const CONTACT_USD = {
  domainSearch: 0.01,
  emailFinder: 0.01,
  emailVerifier: 0.003,
  personEnrichment: 0.02,
  companyEnrichment: 0.02,
  combinedEnrichment: 0.035,
} as const;

export const credits = (n: number): number => Math.round(n * CREDIT_USD * 1e9) / 1e9;
