import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request as forward, type Server } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { request } from 'undici';
import type { Figure } from '../lib/figure.js';
import type { startInProcess } from '../lib/in-process.js';
import { BENCH_OUTPUT_DIR } from '../lib/paths.js';
import { median, round } from '../lib/stats.js';

const IMAGE_MIB = 24;

// A full collection before each call, so each peak starts from the same floor.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A 24 MiB generated image (base64 in the JSON reply, as the image API sends it) through
 * image_generate, against the same reply fetched straight with undici, decoded and written: the
 * time, and the peak of live memory (V8 heap plus buffers outside it) above where it stood before
 * the call. RSS would mislead here: memory freed by one call stays resident for the next. The sandbox makes small
 * PNGs, so a proxy in front of it answers the generation route with the large reply and passes
 * everything else (the model catalog) through.
 */
export async function measureLargeImage(
  sandboxUrl: string,
  key: string,
  rounds: number,
  start: typeof startInProcess,
): Promise<Figure[]> {
  const reply = Buffer.from(
    JSON.stringify({
      created: 1,
      data: [{ b64_json: randomBytes(IMAGE_MIB * 1024 * 1024).toString('base64') }],
      cost: 0.04,
      paymentSource: 'USD',
      remainingBalance: 10,
    }),
  );
  await mkdir(BENCH_OUTPUT_DIR, { recursive: true });
  const proxy = await largeImageProxy(new URL(sandboxUrl), reply);
  const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const mcp = await start(url, key);
  try {
    const direct = async () => {
      const res = await request(`${url}/api/v1/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await res.body.json()) as { data: { b64_json: string }[] };
      await writeFile(join(BENCH_OUTPUT_DIR, 'direct.png'), Buffer.from(body.data[0]!.b64_json, 'base64'));
    };
    const throughMcp = () => mcp.call('image_generate', { model: 'sandbox/image-pro', prompt: 'large' });
    const samples = { orbit: [] as Sample[], direct: [] as Sample[] };
    for (let r = -1; r < rounds; r++) {
      const pair = [await once(direct), await once(throughMcp)];
      if (r >= 0) {
        samples.direct.push(pair[0]!);
        samples.orbit.push(pair[1]!);
      }
    }
    const ms = (s: Sample[]) => median(s.map((x) => x.ms));
    const peak = (s: Sample[]) => median(s.map((x) => x.peakMiB));
    return [
      {
        id: 'large_image_time',
        measure: `image_generate with a ${IMAGE_MIB} MiB image vs the direct request, decode and write (median of ${rounds})`,
        unit: 'ms',
        orbit: round(ms(samples.orbit), 1),
        baseline: round(ms(samples.direct), 1),
        ratio: round(ms(samples.orbit) / ms(samples.direct)),
      },
      {
        id: 'large_image_peak',
        measure: 'Peak live memory (heap and buffers) during that call, above its start',
        unit: 'MiB',
        orbit: round(peak(samples.orbit), 1),
        baseline: round(peak(samples.direct), 1),
        ratio: round(peak(samples.orbit) / peak(samples.direct)),
        details: { samples },
      },
    ];
  } finally {
    await mcp.close();
    await new Promise((resolve) => proxy.close(resolve));
  }
}

interface Sample {
  ms: number;
  peakMiB: number;
}

const live = () => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

async function once(call: () => Promise<unknown>): Promise<Sample> {
  gc();
  const floor = live();
  let peak = floor;
  const watch = setInterval(() => {
    peak = Math.max(peak, live());
  }, 2);
  const started = performance.now();
  try {
    await call();
    return { ms: performance.now() - started, peakMiB: round((peak - floor) / 1024 / 1024, 1) };
  } finally {
    clearInterval(watch);
  }
}

async function largeImageProxy(sandbox: URL, reply: Buffer): Promise<Server> {
  const proxy = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/v1/images') {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': reply.length });
        res.end(reply);
      });
      return;
    }
    const upstream = forward(
      { host: sandbox.hostname, port: sandbox.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}
