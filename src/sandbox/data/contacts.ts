import { z } from 'zod';
import { count, handler } from './direct.js';
import { CITIES, companyName, INDUSTRIES, num, person, pick } from './fake.js';
import { CONTACT_USD } from './pricing.js';

/**
 * Contact discovery and enrichment. A domain under `.invalid` has no mail server and no people, so
 * every "not found" path (and its zero charge) is reachable.
 */
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, 'a domain name such as example.com')
  .describe('Company domain, such as example.com.');
const email = z.string().trim().toLowerCase().describe('An email address.');
const WEBMAIL = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com'];
const DISPOSABLE = ['mailinator.com', 'tempmail.dev', '10minutemail.com'];

const known = (d: string) => !d.endsWith('.invalid') && !d.endsWith('.test');
const addressOf = (first: string, last: string, d: string) => `${first}.${last}@${d}`.toLowerCase();

function peopleAt(d: string, n: number) {
  return Array.from({ length: n }, (_, i) => person(d, i));
}

function companyAt(d: string) {
  const where = pick(d, 'hq', CITIES);
  return {
    name: companyName(d),
    domain: d,
    industry: pick(d, 'industry', INDUSTRIES),
    description: `${companyName(d)} builds products for the ${pick(d, 'industry', INDUSTRIES).toLowerCase()} sector.`,
    foundedYear: num(d, 'founded', 1975, 2021),
    employees: num(d, 'size', 8, 12_000),
    location: { city: where.city, country: where.country },
    technologies: [
      pick(d, 'tech1', ['AWS', 'GCP', 'Azure']),
      pick(d, 'tech2', ['React', 'Vue', 'Svelte']),
      'Postgres',
    ],
    url: `https://${d}`,
  };
}

export const contactsDiscover = handler(
  z
    .object({
      domain: domain.optional(),
      company: z.string().optional().describe('Company name, when the domain is unknown.'),
    })
    .refine((i) => i.domain || i.company, { message: 'give `domain` or `company`', path: ['domain'] }),
  (input) => {
    const d = input.domain ?? `${(input.company ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '')}.com`;
    const people = known(d)
      ? peopleAt(d, num(d, 'n', 3, 8)).map((p) => ({
          fullName: p.fullName,
          position: p.title,
          department: p.department,
          seniority: p.seniority,
          hasEmail: true,
        }))
      : [];
    return {
      costUsd: 0,
      body: { domain: d, company: known(d) ? companyAt(d) : null, people, emailsAvailable: people.length },
    };
  },
);

export const domainSearch = handler(
  z.object({
    domain,
    limit: count(1, 100, 10).describe('Most addresses (1..100, default 10).'),
    type: z
      .enum(['personal', 'generic'])
      .optional()
      .describe('Only personal or only generic (info@) addresses.'),
  }),
  (input) => {
    const d = input.domain;
    const personal = known(d)
      ? peopleAt(d, input.limit).map((p, i) => ({
          value: addressOf(p.first, p.last, d),
          type: 'personal',
          confidence: num(d, `conf${i}`, 70, 99),
          firstName: p.first,
          lastName: p.last,
          position: p.title,
          department: p.department,
          seniority: p.seniority,
        }))
      : [];
    const generic = known(d)
      ? ['info', 'support', 'press'].map((box) => ({ value: `${box}@${d}`, type: 'generic', confidence: 95 }))
      : [];
    const emails = [
      ...(input.type !== 'generic' ? personal : []),
      ...(input.type !== 'personal' ? generic : []),
    ].slice(0, input.limit);
    return {
      costUsd: emails.length > 0 ? CONTACT_USD.domainSearch : 0,
      body: {
        domain: d,
        organization: known(d) ? companyName(d) : null,
        pattern: known(d) ? '{first}.{last}' : null,
        emails,
        meta: { results: emails.length, limit: input.limit },
      },
    };
  },
);

export const emailFinder = handler(
  z.object({
    domain,
    first_name: z.string().trim().min(1).describe('Given name.'),
    last_name: z.string().trim().min(1).describe('Family name.'),
  }),
  (input) => {
    const found = known(input.domain);
    return {
      costUsd: found ? CONTACT_USD.emailFinder : 0,
      body: {
        email: found ? addressOf(input.first_name, input.last_name, input.domain) : null,
        score: found ? num(input.domain, `${input.first_name}${input.last_name}`, 70, 98) : 0,
        domain: input.domain,
        firstName: input.first_name,
        lastName: input.last_name,
        verification: { status: found ? 'valid' : 'unknown' },
      },
    };
  },
);

function verify(address: string) {
  const d = address.split('@')[1] ?? '';
  const syntax = /^[^@\s]+@([a-z0-9-]+\.)+[a-z]{2,}$/.test(address);
  const webmail = WEBMAIL.includes(d);
  const disposable = DISPOSABLE.includes(d);
  const mx = syntax && known(d);
  const acceptAll = mx && !webmail && num(d, 'acceptall', 0, 4) === 0;
  const status =
    !syntax || !mx
      ? 'invalid'
      : disposable
        ? 'disposable'
        : webmail
          ? 'webmail'
          : acceptAll
            ? 'accept_all'
            : 'valid';
  const result =
    status === 'valid' || status === 'webmail'
      ? 'deliverable'
      : status === 'invalid'
        ? 'undeliverable'
        : 'risky';
  return {
    email: address,
    status,
    result,
    score:
      status === 'valid'
        ? 95
        : status === 'webmail'
          ? 85
          : status === 'accept_all'
            ? 60
            : status === 'disposable'
              ? 30
              : 0,
    regexp: syntax,
    disposable,
    webmail,
    mxRecords: mx,
    smtpCheck: mx && !acceptAll,
    acceptAll,
  };
}

export const emailVerifier = handler(z.object({ email }), (input) => ({
  costUsd: CONTACT_USD.emailVerifier,
  body: verify(input.email),
}));

function personOf(address: string) {
  const [local = '', d = ''] = address.split('@');
  if (!known(d) || !d.includes('.')) return null;
  const [first, last] = local.split(/[._-]/);
  const p = person(address);
  const cap = (s: string | undefined, fallback: string) =>
    s ? s.charAt(0).toUpperCase() + s.slice(1) : fallback;
  const where = pick(address, 'city', CITIES);
  return {
    fullName: `${cap(first, p.first)} ${cap(last, p.last)}`,
    email: address,
    position: p.title,
    seniority: p.seniority,
    department: p.department,
    company: companyName(d),
    location: `${where.city}, ${where.country}`,
    profiles: {
      professional: `https://professional.example/in/${local}`,
      microblog: `https://microblog.example/${local}`,
    },
  };
}

const byEmail = z.object({ email });

export const personEnrichment = handler(byEmail, (input) => {
  const found = personOf(input.email);
  return { costUsd: found ? CONTACT_USD.personEnrichment : 0, body: { person: found } };
});

export const companyEnrichment = handler(z.object({ domain }), (input) => {
  const found = known(input.domain) ? companyAt(input.domain) : null;
  return { costUsd: found ? CONTACT_USD.companyEnrichment : 0, body: { company: found } };
});

export const combinedEnrichment = handler(byEmail, (input) => {
  const found = personOf(input.email);
  const d = input.email.split('@')[1] ?? '';
  return {
    costUsd: found ? CONTACT_USD.combinedEnrichment : 0,
    body: { person: found, company: found ? companyAt(d) : null },
  };
});

export const emailCount = handler(z.object({ domain }), (input) => {
  const d = input.domain;
  const personal = known(d) ? num(d, 'personal', 5, 900) : 0;
  const generic = known(d) ? num(d, 'generic', 1, 12) : 0;
  const share = (salt: string) => (known(d) ? Math.floor(personal * (num(d, salt, 5, 30) / 100)) : 0);
  return {
    costUsd: 0,
    body: {
      domain: d,
      total: personal + generic,
      personal_emails: personal,
      generic_emails: generic,
      department: {
        engineering: share('eng'),
        sales: share('sales'),
        marketing: share('mkt'),
        management: share('mgmt'),
      },
      seniority: { junior: share('jr'), senior: share('sr'), executive: share('ex') },
    },
  };
});
