import { z } from 'zod';
import { SandboxError } from '../errors.js';
import { count, handler, oneOf } from './direct.js';
import {
  CITIES,
  FIRST_NAMES,
  handleOf,
  INDUSTRIES,
  LAST_NAMES,
  num,
  pastDate,
  person,
  pick,
  SKILLS,
  TOPICS,
} from './fake.js';
import { credits } from './pricing.js';

/** Forum threads, professional profiles and the microblog. */

export const forumScrape = handler(
  z
    .object({
      url: z.string().optional().describe('A thread or community URL.'),
      community: z.string().optional().describe('Community name, without a prefix.'),
      query: z.string().optional().describe('Only threads matching this text.'),
      limit: count(1, 25, 5).describe('Most threads (1..25, default 5).'),
      includeComments: z.boolean().default(true).describe('Top comments of each thread.'),
    })
    .refine((i) => oneOf(i, ['url', 'community']), {
      message: 'give `url` or `community`',
      path: ['community'],
    })
    .describe('Give `url` or `community`.'),
  (input) => {
    const community =
      input.community ??
      new URL(input.url ?? 'https://forum.example/c/general').pathname.split('/').filter(Boolean)[1] ??
      'general';
    const seed = `${community}|${input.query ?? ''}|${input.url ?? ''}`;
    const threads = Array.from({ length: input.limit }, (_, i) => {
      const topic = input.query ?? pick(seed, `topic${i}`, TOPICS);
      const id = `t_${num(seed, `id${i}`, 100_000, 999_999)}`;
      return {
        id,
        title: `${pick(seed, `q${i}`, ['What do you think of', 'Best resources on', 'Photos from the', 'Question about the'])} ${topic}?`,
        author: handleOf(`${pick(seed, `u${i}`, FIRST_NAMES)}${num(seed, `n${i}`, 1, 99)}`),
        community,
        score: num(seed, `s${i}`, 1, 4200),
        commentsCount: num(seed, `c${i}`, 0, 350),
        createdAt: pastDate(seed, `d${i}`, 60),
        url: `https://forum.example/c/${community}/${id}`,
        text: `Thread ${i + 1} in ${community} about ${topic}: a deterministic sandbox post.`,
        ...(input.includeComments
          ? {
              comments: [0, 1].map((j) => ({
                id: `c_${num(seed, `cid${i}.${j}`, 100_000, 999_999)}`,
                author: handleOf(pick(seed, `cu${i}.${j}`, LAST_NAMES)),
                score: num(seed, `cs${i}.${j}`, 0, 900),
                text: pick(seed, `ct${i}.${j}`, [
                  'Great write-up.',
                  'Source?',
                  'Saw it live, amazing.',
                  'This.',
                ]),
              })),
            }
          : {}),
      };
    });
    return {
      costUsd: credits(threads.length * 2),
      credits: threads.length * 2,
      body: { community, threads },
    };
  },
);

export const professionalProfile = handler(
  z
    .object({
      url: z.string().optional().describe('Profile URL.'),
      username: z.string().optional().describe('Profile handle.'),
    })
    .refine((i) => oneOf(i, ['url', 'username']), { message: 'give `url` or `username`', path: ['username'] })
    .describe('Give `url` or `username`.'),
  (input) => {
    const handle = handleOf(input.username ?? input.url?.split('/').filter(Boolean).pop() ?? 'user');
    const who = person(handle);
    const where = pick(handle, 'city', CITIES);
    const companies = [0, 1, 2].map(
      (i) => `${pick(handle, `co${i}`, LAST_NAMES)} ${pick(handle, `ind${i}`, INDUSTRIES)}`,
    );
    return {
      costUsd: credits(10),
      credits: 10,
      body: {
        profile: {
          username: handle,
          fullName: who.fullName,
          headline: `${who.title} at ${companies[0]}`,
          location: `${where.city}, ${where.country}`,
          about: `${who.first} works on ${pick(handle, 'about', SKILLS).toLowerCase()} and mentors new engineers.`,
          connections: num(handle, 'conn', 40, 500),
          experience: companies.map((company, i) => ({
            title:
              i === 0 ? who.title : pick(handle, `t${i}`, ['Engineer', 'Analyst', 'Consultant', 'Manager']),
            company,
            start: `${2024 - i * 3 - num(handle, `s${i}`, 0, 2)}-0${num(handle, `m${i}`, 1, 9)}`,
            end: i === 0 ? null : `${2024 - (i - 1) * 3}-0${num(handle, `e${i}`, 1, 9)}`,
          })),
          education: [
            { school: `University of ${where.city}`, degree: 'BSc Computer Science', years: '2008-2012' },
          ],
          skills: [0, 1, 2, 3]
            .map((i) => pick(handle, `sk${i}`, SKILLS))
            .filter((s, i, all) => all.indexOf(s) === i),
          url: `https://professional.example/in/${handle}`,
        },
      },
    };
  },
);

const microblogInput = z.object({
  username: z.string().optional().describe('Whose posts (or, under `/users/<name>`, whose profile).'),
  query: z.string().optional().describe('Search posts for this text (also `/search?query=`).'),
  limit: count(1, 100, 20).describe('Most posts (1..100, default 20).'),
});

/** Sub-resources: '' (posts of `username` or a `query`), `users/<name>`, `users/<name>/posts`, `search`. */
export const microblog = handler(microblogInput, (input, call) => {
  const parts = call.rest.split('/').filter(Boolean);
  if (parts[0] === 'users' && parts[1] && parts.length === 2) {
    const handle = handleOf(parts[1]);
    const who = person(handle);
    return {
      costUsd: credits(1),
      credits: 1,
      body: {
        user: {
          username: handle,
          displayName: who.fullName,
          bio: `${who.title}. Posts about ${pick(handle, 'bio', TOPICS)}s.`,
          followers: num(handle, 'f', 10, 3_000_000),
          following: num(handle, 'g', 10, 3000),
          postsCount: num(handle, 'n', 10, 90_000),
          verified: num(handle, 'v', 0, 2) === 0,
          joinedAt: pastDate(handle, 'j', 4000),
        },
      },
    };
  }
  const byUser = parts[0] === 'users' && parts[1] && parts[2] === 'posts' && parts.length === 3;
  if (parts.length > 0 && !byUser && !(parts[0] === 'search' && parts.length === 1)) {
    throw new SandboxError(
      404,
      `No microblog resource "${call.rest}"; use users/<name>, users/<name>/posts or search.`,
      {
        code: 'not_found',
      },
    );
  }
  const user = byUser ? parts[1] : input.username;
  if (!user && !input.query) {
    throw new SandboxError(400, 'Give `username` or `query`.', {
      code: 'missing_required_parameter',
      param: 'username',
    });
  }
  const seed = user ? `@${user}` : `?${input.query}`;
  const posts = Array.from({ length: input.limit }, (_, i) => {
    const author = handleOf(user ?? pick(seed, `a${i}`, LAST_NAMES));
    const id = `${num(seed, `id${i}`, 1e9, 9e9)}${i}`;
    return {
      id,
      author,
      text: `${input.query ? `${input.query}: ` : ''}${pick(seed, `t${i}`, ['Watching the', 'Thread on the', 'New photos of the', 'Notes from the'])} ${pick(seed, `w${i}`, TOPICS)} (${i + 1})`,
      likes: num(seed, `l${i}`, 0, 80_000),
      reposts: num(seed, `r${i}`, 0, 9000),
      replies: num(seed, `p${i}`, 0, 2000),
      createdAt: pastDate(seed, `d${i}`, 30),
      url: `https://microblog.example/${author}/status/${id}`,
    };
  });
  const used = Math.ceil(posts.length / 5);
  return {
    costUsd: credits(used),
    credits: used,
    body: { ...(user ? { username: handleOf(user) } : { query: input.query }), posts },
  };
});
