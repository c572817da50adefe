/**
 * Run by heap.test.ts in a process of its own: allocates as a busy server does (short-lived
 * garbage, some of it surviving a scavenge or two) and prints the young generation's size in bytes.
 * With `cap` as its argument the server's heap policy is on first.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { manageHeapGrowth } from '../../src/heap.js';

if (process.argv[2] === 'cap') manageHeapGrowth('http');
let kept: object[] = [];
for (let i = 0; i < 3_000_000; i++) {
  kept.push({ i, text: `call ${i}` });
  if (kept.length > 20_000) kept = [];
  // The GC observer's callback runs as a task: the loop lets tasks run now and then, as a server's does.
  if (i % 50_000 === 0) await new Promise((resolve) => setImmediate(resolve));
}
const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
process.stdout.write(String(young?.space_size ?? 0));
