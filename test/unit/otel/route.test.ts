import { describe, expect, it } from 'vitest';
import { tracingWanted } from '../../../src/otel/index.js';
import { routeTemplate } from '../../../src/otel/route.js';

describe('routeTemplate', () => {
  it('keeps fixed segments and versions, writes ids as {id}, drops host and query', () => {
    expect(routeTemplate('/api/v1/chat/completions')).toBe('/api/v1/chat/completions');
    expect(routeTemplate('/api/v1/video/jobs/job_3f9a2b?wait=1')).toBe('/api/v1/video/jobs/{id}');
    expect(routeTemplate('https://api.example.com/api/x402/status/pay_97d7550c75edfd0f0e9eaa8f')).toBe(
      '/api/x402/status/{id}',
    );
    expect(routeTemplate('/api/v1/data/web/search')).toBe('/api/v1/data/web/search');
  });
});

describe('tracingWanted', () => {
  it('is on only when an OTLP endpoint is named, and off when the SDK is disabled', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBe(
      false,
    );
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBe(false);
  });
});
