import { URL_SCRAPE_STEALTH_USD, URL_SCRAPE_USD } from '../data/pricing.js';
import { WEB_SEARCH_DEEP_USD, WEB_SEARCH_USD } from '../routes/web.js';

/** Routes that take an accountless quote (spec 1 §4.5, §7.3; spec 2 §4.3), served by `GET /api/v1/x402/endpoints`. */
export interface PayableRoute {
  method: 'POST';
  path: string;
  description: string;
  pricing: string;
  /** The catalog id when the route is a data API endpoint. */
  dataEndpoint?: string;
}

const SEARCH_PRICE = `${WEB_SEARCH_USD} USD per standard search, ${WEB_SEARCH_DEEP_USD} USD per deep search`;
const SCRAPE_PRICE = `${URL_SCRAPE_USD} USD per scraped URL, ${URL_SCRAPE_STEALTH_USD} USD in stealth mode`;

export const PAYABLE_ROUTES: readonly PayableRoute[] = [
  { method: 'POST', path: '/api/web', description: 'Web search.', pricing: SEARCH_PRICE },
  {
    method: 'POST',
    path: '/api/v1/data/web/search',
    description: 'Web search through the data API.',
    pricing: SEARCH_PRICE,
    dataEndpoint: 'web.search',
  },
  {
    method: 'POST',
    path: '/api/v1/data/url/scrape',
    description: 'Scrape up to 5 URLs to markdown through the data API.',
    pricing: SCRAPE_PRICE,
    dataEndpoint: 'url.scrape',
  },
  {
    method: 'POST',
    path: '/api/scrape-urls',
    description: 'Scrape up to 5 URLs to markdown (the direct route the data API wraps).',
    pricing: SCRAPE_PRICE,
  },
];
