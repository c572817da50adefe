import { stableHash } from '../util.js';

/**
 * Deterministic stand-ins for real-world data: the same seed and salt always give the same pick,
 * so every data endpoint answers the same input with the same body.
 */
export const num = (seed: string, salt: string | number, min: number, max: number): number =>
  min + (stableHash(`${seed}|${salt}`) % (max - min + 1));

export const pick = <T>(seed: string, salt: string | number, list: readonly T[]): T =>
  list[stableHash(`${seed}|${salt}`) % list.length]!;

/** A date `daysBack` days (at most) before the fixed sandbox "today", as ISO. */
const TODAY = Date.UTC(2025, 5, 1);
export const pastDate = (seed: string, salt: string | number, daysBack: number): string =>
  new Date(
    TODAY - num(seed, salt, 0, daysBack) * 86_400_000 - num(seed, `${salt}h`, 0, 86_399) * 1000,
  ).toISOString();

export const idOf = (prefix: string, seed: string, salt: string | number = ''): string =>
  `${prefix}_${stableHash(`${seed}|${salt}|id`).toString(16).padStart(8, '0')}${num(seed, salt, 10, 99)}`;

export const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Tim',
  'Hedy',
  'Dennis',
  'Barbara',
  'Ken',
  'Radia',
  'Vint',
  'Frances',
  'Edsger',
  'Sophie',
  'John',
  'Mary',
  'Claude',
  'Annie',
] as const;
export const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Berners',
  'Lamarr',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Perlman',
  'Cerf',
  'Allen',
  'Dijkstra',
  'Wilson',
  'Backus',
  'Keller',
  'Shannon',
  'Easley',
] as const;

const TITLES = [
  ['Chief Executive Officer', 'executive', 'executive'],
  ['VP of Engineering', 'engineering', 'executive'],
  ['Head of Marketing', 'marketing', 'senior'],
  ['Senior Software Engineer', 'engineering', 'senior'],
  ['Product Manager', 'management', 'senior'],
  ['Sales Director', 'sales', 'senior'],
  ['Customer Success Manager', 'support', 'junior'],
  ['Data Scientist', 'engineering', 'junior'],
  ['Finance Manager', 'finance', 'senior'],
  ['Recruiter', 'hr', 'junior'],
] as const;

export const CITIES = [
  { city: 'Lisbon', country: 'PT', lat: 38.7223, lng: -9.1393 },
  { city: 'Berlin', country: 'DE', lat: 52.52, lng: 13.405 },
  { city: 'Austin', country: 'US', lat: 30.2672, lng: -97.7431 },
  { city: 'Toronto', country: 'CA', lat: 43.6532, lng: -79.3832 },
  { city: 'Singapore', country: 'SG', lat: 1.3521, lng: 103.8198 },
  { city: 'Nairobi', country: 'KE', lat: -1.2921, lng: 36.8219 },
] as const;

export const INDUSTRIES = [
  'Software',
  'Aerospace',
  'Financial Services',
  'Healthcare',
  'Retail',
  'Education',
  'Energy',
  'Media',
] as const;

export const SKILLS = [
  'TypeScript',
  'Distributed Systems',
  'Product Strategy',
  'Machine Learning',
  'Public Speaking',
  'Negotiation',
  'Data Analysis',
  'Team Leadership',
  'Cloud Architecture',
  'UX Research',
] as const;

export const person = (seed: string, salt: string | number = '') => {
  const first = pick(seed, `${salt}first`, FIRST_NAMES);
  const last = pick(seed, `${salt}last`, LAST_NAMES);
  const [title, department, seniority] = pick(seed, `${salt}title`, TITLES);
  return { first, last, fullName: `${first} ${last}`, title, department, seniority };
};

/** `Example` from `example.co.uk`: the company a domain belongs to. */
export function companyName(domain: string): string {
  const label = domain.replace(/^www\./, '').split('.')[0] ?? domain;
  return label
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export const handleOf = (text: string): string =>
  text
    .toLowerCase()
    .replace(/^@/, '')
    .replace(/[^a-z0-9_.]+/g, '_')
    .slice(0, 30) || 'user';

export const TOPICS = [
  'launch',
  'telescope',
  'rover',
  'satellite',
  'eclipse',
  'orbit',
  'comet',
  'station',
] as const;
