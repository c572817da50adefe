import { slugify } from '../search.js';
import { companyName, num, pick } from './fake.js';

/**
 * Web pages the sandbox "fetches": the URL rules of the scraping routes (GAPS "Data API inputs")
 * and a deterministic markdown page per URL, shared by url.scrape and the crawler.
 */
const VIDEO_HOSTS = ['youtube.com', 'youtu.be', 'vimeo.com', 'tiktok.com', 'twitch.tv', 'dailymotion.com'];
const METADATA_HOSTS = [
  '169.254.169.254',
  'metadata',
  'metadata.google.internal',
  'metadata.azure.internal',
  '100.100.100.200',
  'fd00:ec2::254',
];

/** Why a URL may not be scraped, or undefined when it may. */
export function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs can be scraped';
  if (url.port && url.port !== '80' && url.port !== '443')
    return 'only the standard ports 80 and 443 can be scraped';
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (METADATA_HOSTS.includes(host)) return 'cloud metadata hosts cannot be scraped';
  if (host === 'localhost' || /\.(localhost|local|internal)$/.test(host) || isPrivateAddress(host)) {
    return 'localhost and private network addresses cannot be scraped';
  }
  if (VIDEO_HOSTS.some((v) => host === v || host.endsWith(`.${v}`))) {
    return 'video-site links cannot be scraped; transcribe them with POST /api/youtube-transcribe';
  }
  return undefined;
}

function isPrivateAddress(host: string): boolean {
  const v4 = host.match(/^(\d+)\.(\d+)\.\d+\.\d+$/);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (!host.includes(':')) return false;
  return (
    host === '::' || host === '::1' || /^(fc|fd|fe8|fe9|fea|feb)/.test(host) || host.startsWith('::ffff:')
  );
}

export interface Page {
  url: string;
  success: boolean;
  statusCode: number;
  title?: string;
  markdown?: string;
  content?: string;
  links?: string[];
  error?: string;
}

const SECTIONS = [
  'docs',
  'guides',
  'api',
  'blog',
  'pricing',
  'about',
  'changelog',
  'faq',
  'tutorials',
  'examples',
];
const titleCase = (slug: string) =>
  slug
    .split('-')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/**
 * Three distinct links one level below the page, none below depth 3.
 * @public test/unit/linear-time.test.ts loads this file by its path in a child process.
 */
export function linksOf(url: URL): string[] {
  const base = url.pathname.replace(/(?<!\/)\/+$/, '');
  if (base.split('/').filter(Boolean).length >= 3) return [];
  const start = num(url.href, 'links', 0, SECTIONS.length - 1);
  return [0, 3, 6].map((step) => `${url.origin}${base}/${SECTIONS[(start + step) % SECTIONS.length]}`);
}

/** The page at a URL: fetched (as markdown and plain text) or a fetch failure. */
export function fetchPage(raw: string): Page {
  const url = new URL(raw);
  if (url.hostname.endsWith('.invalid')) {
    return { url: raw, success: false, statusCode: 0, error: `DNS lookup failed for ${url.hostname}` };
  }
  if (/\/(404|missing|not-found)(\/|$)/.test(url.pathname)) {
    return { url: raw, success: false, statusCode: 404, error: 'HTTP 404 Not Found' };
  }
  const site = companyName(url.hostname);
  const slug = url.pathname.split('/').filter(Boolean).pop();
  const topic = slug ? titleCase(slugify(slug)) : 'Home';
  const title = `${topic} | ${site}`;
  const links = linksOf(url);
  const points = [0, 1, 2].map(
    (i) =>
      `${pick(url.href, `verb${i}`, ['Explains', 'Compares', 'Lists', 'Shows', 'Summarises'])} ${pick(url.href, `what${i}`, ['setup steps', 'prices', 'limits', 'examples', 'known issues', 'release dates'])} for ${topic.toLowerCase()}.`,
  );
  const intro = `${site} publishes this page about ${topic.toLowerCase()} at ${url.hostname}. It was last updated ${num(url.href, 'days', 1, 90)} days ago and takes about ${num(url.href, 'min', 2, 9)} minutes to read.`;
  const body = `The page walks through ${topic.toLowerCase()} in ${num(url.href, 'steps', 3, 7)} steps, with notes for first-time readers and a reference table at the end.`;
  const markdown = [
    `# ${title}`,
    intro,
    '## Overview',
    body,
    '## Key points',
    points.map((p) => `- ${p}`).join('\n'),
    ...(links.length
      ? ['## Related', links.map((l) => `- [${titleCase(l.split('/').pop()!)}](${l})`).join('\n')]
      : []),
  ].join('\n\n');
  const content = [title, intro, 'Overview', body, 'Key points', ...points].join('\n');
  return { url: raw, success: true, statusCode: 200, title, markdown, content, links };
}
