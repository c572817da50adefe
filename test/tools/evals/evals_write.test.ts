import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool({ config: { toolsets: 'evals' } });

describe('evals_write', () => {
  it('creates a project, sending the spec body', async () => {
    expect(
      await t.snap('evals_write', {
        operation: 'projects.create',
        name: 'Capitals',
        settings: { store_content: true, redaction: 'pii' },
      }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "{"operation":"projects.create","data":{"id":"evalproj_000001","name":"Capitals","object":"eval.project","description":null,"settings":{"store_content":true,"redaction":"pii"},"created_at":"<time>","updated_at":"<time>"}}",
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
              "settings": {
                "redaction": "pii",
                "store_content": true,
              },
              "updated_at": "<time>",
            },
            "operation": "projects.create",
          },
        },
        "sent": [
          {
            "body": {
              "name": "Capitals",
              "settings": {
                "redaction": "pii",
                "store_content": true,
              },
            },
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
              "content-type": "application/json",
            },
            "method": "POST",
            "path": "/api/v1/evals/projects",
            "status": 201,
          },
        ],
      }
    `);
  });

  it('says when the dataset to freeze does not exist', async () => {
    expect(
      await t.snap('evals_write', { operation: 'datasets.freeze', id: 'evalds_999999' }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (not_found, HTTP 404): No dataset "evalds_999999" for this API key.
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
            "method": "POST",
            "path": "/api/v1/evals/datasets/evalds_999999/versions",
            "status": 404,
          },
        ],
      }
    `);
  });
});
