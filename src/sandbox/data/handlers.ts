import { z } from 'zod';
import {
  combinedEnrichment,
  companyEnrichment,
  contactsDiscover,
  domainSearch,
  emailCount,
  emailFinder,
  emailVerifier,
  personEnrichment,
} from './contacts.js';
import type { DirectHandler } from './direct.js';
import { mapsReviews, mapsSearch } from './maps.js';
import { photoPosts, photoProfile, photoReels, shortVideo } from './photo.js';
import { crawler, urlScrape } from './scraping.js';
import { forumScrape, microblog, professionalProfile } from './social.js';

/** The direct route behind each catalog id; web.search's (`/api/web`) lives in routes/web.ts. */
export const DIRECT_HANDLERS: Readonly<Record<string, DirectHandler>> = {
  'url.scrape': urlScrape,
  crawler,
  'maps.search': mapsSearch,
  'maps.reviews': mapsReviews,
  'forum.scrape': forumScrape,
  'professional.profile': professionalProfile,
  'photo.profile': photoProfile,
  'photo.posts': photoPosts,
  'photo.reels': photoReels,
  'shortvideo.scrape': shortVideo,
  'microblog.read': microblog,
  'contacts.discover': contactsDiscover,
  'contacts.domain_search': domainSearch,
  'contacts.email_finder': emailFinder,
  'contacts.email_verifier': emailVerifier,
  'contacts.person_enrichment': personEnrichment,
  'contacts.company_enrichment': companyEnrichment,
  'contacts.combined_enrichment': combinedEnrichment,
  'contacts.email_count': emailCount,
};

/** `/api/web`'s input (GAPS "Data API inputs"), for web.search's public metadata. */
const WEB_SEARCH_INPUT = z
  .object({
    query: z.string().min(1).describe('What to search for.'),
    depth: z.enum(['standard', 'deep']).optional().describe('"deep" searches longer and costs more.'),
    outputType: z
      .enum(['searchResults', 'sourcedAnswer', 'structured'])
      .optional()
      .describe('Ranked results (default), an answer with sources, or a structured object.'),
    structuredOutputSchema: z.string().optional().describe('JSON schema (as a string) for `structured`.'),
    includeImages: z.boolean().optional(),
    fromDate: z.string().optional().describe('YYYY-MM-DD'),
    toDate: z.string().optional().describe('YYYY-MM-DD'),
    includeDomains: z.array(z.string()).optional(),
    excludeDomains: z.array(z.string()).optional(),
    maxResults: z.number().int().min(1).max(20).optional().describe('1..20, default 5.'),
  })
  .describe('Provider-specific top-level fields are passed through.');

/** The input schema an endpoint's metadata describes. */
export const inputSchemaOf = (id: string): z.ZodType =>
  id === 'web.search' ? WEB_SEARCH_INPUT : DIRECT_HANDLERS[id]!.schema;
