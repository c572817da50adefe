import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ config: { toolsets: 'evals' } });

describe('evals_read', () => {
  it('reads a project', async () => {
    const created = await t.h.call('evals_write', { operation: 'projects.create', name: 'Capitals' });
    const { id } = (created.structuredContent as { data: { id: string } }).data;
    expect(await t.snap('evals_read', { operation: 'projects.get', id })).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"projects.get","data":{"id":"evalproj_000001","name":"Capitals","object":"eval.project","description":null,"settings":{},"created_at":"<time>","updated_at":"<time>"}}",
              "type": "text",
            },
          ],
          "structuredContent": {
            "data": {
              "created_at": "<time>",
              "description": null,
              "id": "evalproj_000001",
              "name": "Capitals",
              "object": "eval.project",
              "settings": {},
              "updated_at": "<time>",
            },
            "operation": "projects.get",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/evals/projects/evalproj_000001",
            "status": 200,
          },
        ],
      }
    `);
  });

  it('says when an experiment does not exist', async () => {
    expect(
      await t.snap('evals_read', { operation: 'experiments.get', id: 'evalexp_999999' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (not_found, HTTP 404): No experiment "evalexp_999999" for this API key.
      Platform code: not_found
      Fix: Check the id; list the items first to find a valid one.
      Request id: req_<n>",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/evals/experiments/evalexp_999999",
            "status": 404,
          },
        ],
      }
    `);
  });
});
