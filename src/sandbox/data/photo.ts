import { z } from 'zod';
import { count, handler, oneOf } from './direct.js';
import { FIRST_NAMES, handleOf, num, pastDate, person, pick, TOPICS } from './fake.js';
import { credits } from './pricing.js';

/** The photo-sharing network (profile, posts, reels) and the short-video network. */
const username = z.string().trim().min(1).describe('Handle without the @.');

const photoInput = z.object({
  username,
  limit: count(1, 50, 12).describe('Most items (1..50, default 12).'),
});

export const photoProfile = handler(z.object({ username }), (input) => {
  const handle = handleOf(input.username);
  return {
    costUsd: credits(2),
    credits: 2,
    body: {
      profile: {
        username: handle,
        fullName: person(handle).fullName,
        biography: `Photos of ${pick(handle, 'bio', TOPICS)}s and everything in between.`,
        followers: num(handle, 'followers', 50, 9_000_000),
        following: num(handle, 'following', 10, 2000),
        postsCount: num(handle, 'posts', 5, 4000),
        isVerified: num(handle, 'verified', 0, 3) === 0,
        externalUrl: `https://${handle}.example`,
        profilePicUrl: `https://photo.example/${handle}/avatar.jpg`,
      },
    },
  };
});

function photoItems(input: z.output<typeof photoInput>, kind: 'post' | 'reel') {
  const handle = handleOf(input.username);
  return Array.from({ length: input.limit }, (_, i) => {
    const code = `${kind === 'reel' ? 'R' : 'P'}${num(handle, `${kind}${i}`, 10_000_000, 99_999_999).toString(36)}`;
    return {
      id: `${num(handle, `${kind}id${i}`, 1e8, 9e8)}`,
      shortcode: code,
      caption: `${pick(handle, `${kind}c${i}`, ['Golden hour over the', 'Behind the scenes at the', 'Another look at the'])} ${pick(handle, `${kind}t${i}`, TOPICS)}`,
      likes: num(handle, `${kind}l${i}`, 10, 500_000),
      comments: num(handle, `${kind}m${i}`, 0, 5000),
      takenAt: pastDate(handle, `${kind}d${i}`, 365),
      url: `https://photo.example/${kind === 'reel' ? 'reel' : 'p'}/${code}`,
      ...(kind === 'reel'
        ? {
            plays: num(handle, `p${i}`, 100, 2_000_000),
            durationSeconds: num(handle, `dur${i}`, 5, 90),
            videoUrl: `https://photo.example/media/${code}.mp4`,
          }
        : {
            type: pick(handle, `ty${i}`, ['image', 'carousel']),
            imageUrl: `https://photo.example/media/${code}.jpg`,
          }),
    };
  });
}

export const photoPosts = handler(photoInput, (input) => {
  const posts = photoItems(input, 'post');
  return {
    costUsd: credits(posts.length),
    credits: posts.length,
    body: { username: handleOf(input.username), posts },
  };
});

export const photoReels = handler(photoInput, (input) => {
  const reels = photoItems(input, 'reel');
  return {
    costUsd: credits(reels.length),
    credits: reels.length,
    body: { username: handleOf(input.username), reels },
  };
});

export const shortVideo = handler(
  z
    .object({
      url: z.string().optional().describe('One video URL.'),
      username: z.string().optional().describe('A profile handle.'),
      hashtag: z.string().optional().describe('A hashtag, without #.'),
      limit: count(1, 50, 10).describe('Most videos (1..50, default 10; one for a video URL).'),
    })
    .refine((i) => oneOf(i, ['url', 'username', 'hashtag']), {
      message: 'give `url`, `username` or `hashtag`',
      path: ['username'],
    })
    .describe('Give `url`, `username` or `hashtag`.'),
  (input) => {
    const seed = input.url ?? input.username ?? `#${input.hashtag}`;
    const videos = Array.from({ length: input.url ? 1 : input.limit }, (_, i) => {
      const id = `${num(seed, `v${i}`, 1e9, 9e9)}`;
      const author = handleOf(input.username ?? pick(seed, `a${i}`, FIRST_NAMES));
      return {
        id,
        author,
        description: `${pick(seed, `d${i}`, TOPICS)} in 30 seconds #${input.hashtag ?? pick(seed, `h${i}`, TOPICS)}`,
        plays: num(seed, `p${i}`, 500, 9_000_000),
        likes: num(seed, `l${i}`, 10, 900_000),
        shares: num(seed, `s${i}`, 0, 50_000),
        comments: num(seed, `c${i}`, 0, 20_000),
        durationSeconds: num(seed, `t${i}`, 6, 180),
        createdAt: pastDate(seed, `at${i}`, 120),
        url: input.url ?? `https://shortvideo.example/@${author}/video/${id}`,
        hashtags: [input.hashtag ?? pick(seed, `h${i}`, TOPICS), 'space'],
      };
    });
    return { costUsd: credits(videos.length), credits: videos.length, body: { videos } };
  },
);
