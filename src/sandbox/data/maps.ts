import { z } from 'zod';
import { slugify } from '../search.js';
import { count, handler, nonEmpty } from './direct.js';
import { CITIES, FIRST_NAMES, idOf, LAST_NAMES, num, pastDate, pick } from './fake.js';
import { credits } from './pricing.js';

/** maps.search and maps.reviews: places near a location, and a place's reviews. */
const KINDS = ['Cafe', 'Bakery', 'Bistro', 'Bookshop', 'Gallery', 'Market', 'Studio', 'Kitchen'];
const STREETS = ['Rua Augusta', 'Main Street', 'Harbour Road', 'Market Lane', 'Elm Avenue', 'Station Square'];
const PRAISE = [
  'Friendly staff and quick service.',
  'Great value, would come back.',
  'Cosy place, a bit crowded at lunch.',
  'Excellent quality, slightly pricey.',
  'Quiet in the mornings, perfect for work.',
];
const COMPLAINTS = [
  'Waited too long for a table.',
  'Music was too loud.',
  'Not as good as the reviews said.',
];

function cityOf(location: string | undefined, seed: string) {
  const wanted = location?.toLowerCase() ?? '';
  return CITIES.find((c) => wanted.includes(c.city.toLowerCase())) ?? pick(seed, 'city', CITIES);
}

export const mapsSearch = handler(
  z
    .object({
      query: nonEmpty('What to look for, such as "coffee" or "bike repair".'),
      location: z.string().optional().describe('A city or address to search near.'),
      limit: count(1, 20, 10).describe('Most places to return (1..20, default 10).'),
      language: z.string().optional().describe('Language of place names and categories, such as "en".'),
    })
    .describe('Finds places by text near a location; GET takes the same fields as query parameters.'),
  (input) => {
    const seed = `${input.query}|${input.location ?? ''}`;
    const where = cityOf(input.location, seed);
    const places = Array.from({ length: input.limit }, (_, i) => {
      const kind = pick(seed, `kind${i}`, KINDS);
      const name = `${pick(seed, `name${i}`, LAST_NAMES)}'s ${input.query.trim().replace(/^\w/, (ch) => ch.toUpperCase())} ${kind}`;
      const placeId = idOf('place', seed, i);
      return {
        placeId,
        name,
        category: `${input.query.trim().toLowerCase()} ${kind.toLowerCase()}`,
        address: `${num(seed, `no${i}`, 1, 240)} ${pick(seed, `street${i}`, STREETS)}, ${where.city}, ${where.country}`,
        location: {
          lat: Math.round((where.lat + (num(seed, `lat${i}`, 0, 2000) - 1000) / 50_000) * 1e6) / 1e6,
          lng: Math.round((where.lng + (num(seed, `lng${i}`, 0, 2000) - 1000) / 50_000) * 1e6) / 1e6,
        },
        rating: num(seed, `rating${i}`, 32, 50) / 10,
        reviewsCount: num(seed, `reviews${i}`, 4, 1800),
        priceLevel: num(seed, `price${i}`, 1, 4),
        phone: `+${num(seed, `cc${i}`, 1, 99)} ${num(seed, `ph${i}`, 200, 999)} ${num(seed, `ph2${i}`, 100_000, 999_999)}`,
        website: `https://${slugify(name)}.example`,
        openNow: num(seed, `open${i}`, 0, 3) > 0,
        openingHours: `Mon-Sat ${num(seed, `from${i}`, 7, 10)}:00-${num(seed, `to${i}`, 17, 23)}:00`,
        url: `https://maps.example/place/${placeId}`,
      };
    });
    return {
      costUsd: credits(places.length),
      credits: places.length,
      body: { query: input.query, location: input.location ?? where.city, places, count: places.length },
    };
  },
);

export const mapsReviews = handler(
  z
    .object({
      placeId: nonEmpty('A `placeId` from maps.search.'),
      limit: count(1, 100, 10).describe('Most reviews to return (1..100, default 10).'),
      sort: z.enum(['newest', 'relevant', 'highest', 'lowest']).default('relevant').describe('Review order.'),
    })
    .describe('Reviews of one place.'),
  (input) => {
    const seed = input.placeId;
    let reviews = Array.from({ length: input.limit }, (_, i) => {
      const rating = num(seed, `stars${i}`, 1, 5);
      return {
        reviewId: idOf('rev', seed, i),
        author: `${pick(seed, `a${i}`, FIRST_NAMES)} ${pick(seed, `b${i}`, LAST_NAMES).charAt(0)}.`,
        rating,
        text: rating >= 3 ? pick(seed, `t${i}`, PRAISE) : pick(seed, `t${i}`, COMPLAINTS),
        publishedAt: pastDate(seed, `d${i}`, 700),
        likes: num(seed, `l${i}`, 0, 40),
      };
    });
    if (input.sort === 'newest') reviews = reviews.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
    if (input.sort === 'highest') reviews = reviews.sort((a, b) => b.rating - a.rating);
    if (input.sort === 'lowest') reviews = reviews.sort((a, b) => a.rating - b.rating);
    const used = Math.ceil(reviews.length / 10);
    const average = reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length;
    return {
      costUsd: credits(used),
      credits: used,
      body: {
        placeId: input.placeId,
        sort: input.sort,
        averageRating: Math.round(average * 10) / 10,
        reviews,
      },
    };
  },
);
