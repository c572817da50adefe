import { describe, expect, it } from 'vitest';
import { useTool } from '../lib.js';

const t = useTool();

describe('data_call', () => {
  it('calls a GET endpoint with its input as the query', async () => {
    expect(
      await t.snap('data_call', {
        endpoint: 'maps.search',
        method: 'GET',
        input: { query: 'coffee', location: 'Lisbon', limit: 2 },
      }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "_meta": {
            "orbit/untrusted": [
              "data",
            ],
          },
          "content": [
            {
              "text": "<untrusted-web-content>
      maps.search (cost 0.0024 USD) [req_<n>]
      {"query":"coffee","location":"Lisbon","places":[{"placeId":"place_7a15313445","name":"Turing's Coffee Bistro","category":"coffee bistro","address":"186 Station Square, Lisbon, PT","location":{"lat":38.7219,"lng":-9.15784},"rating":4.4,"reviewsCount":651,"priceLevel":4,"phone":"+53 650 942935","website":"https://turing-s-coffee-bistro.example","openNow":true,"openingHours":"Mon-Sat 9:00-21:00","url":"https://maps.example/place/place_7a15313445"},{"placeId":"place_439db0c722","name":"Shannon's Coffee Gallery","category":"coffee gallery","address":"187 Market Lane, Lisbon, PT","location":{"lat":38.72574,"lng":-9.13218},"rating":3.7,"reviewsCount":1317,"priceLevel":1,"phone":"+30 291 501234","website":"https://shannon-s-coffee-gallery.example","openNow":true,"openingHours":"Mon-Sat 9:00-18:00","url":"https://maps.example/place/place_439db0c722"}],"count":2,"cost":0.0024,"x_orbit_pricing":{"amount":0.0024,"currency":"USD","cost":0.0024,"paymentSource":"USD","credits":2}}
      </untrusted-web-content>",
              "type": "text",
            },
          ],
          "structuredContent": {
            "cost": 0.0024,
            "data": {
              "cost": 0.0024,
              "count": 2,
              "location": "Lisbon",
              "places": [
                {
                  "address": "186 Station Square, Lisbon, PT",
                  "category": "coffee bistro",
                  "location": {
                    "lat": 38.7219,
                    "lng": -9.15784,
                  },
                  "name": "Turing's Coffee Bistro",
                  "openNow": true,
                  "openingHours": "Mon-Sat 9:00-21:00",
                  "phone": "+53 650 942935",
                  "placeId": "place_7a15313445",
                  "priceLevel": 4,
                  "rating": 4.4,
                  "reviewsCount": 651,
                  "url": "https://maps.example/place/place_7a15313445",
                  "website": "https://turing-s-coffee-bistro.example",
                },
                {
                  "address": "187 Market Lane, Lisbon, PT",
                  "category": "coffee gallery",
                  "location": {
                    "lat": 38.72574,
                    "lng": -9.13218,
                  },
                  "name": "Shannon's Coffee Gallery",
                  "openNow": true,
                  "openingHours": "Mon-Sat 9:00-18:00",
                  "phone": "+30 291 501234",
                  "placeId": "place_439db0c722",
                  "priceLevel": 1,
                  "rating": 3.7,
                  "reviewsCount": 1317,
                  "url": "https://maps.example/place/place_439db0c722",
                  "website": "https://shannon-s-coffee-gallery.example",
                },
              ],
              "query": "coffee",
              "x_orbit_pricing": {
                "amount": 0.0024,
                "cost": 0.0024,
                "credits": 2,
                "currency": "USD",
                "paymentSource": "USD",
              },
            },
            "direct_endpoint": "/api/maps/search",
            "endpoint": "maps.search",
            "request_id": "req_<n>",
          },
        },
        "sent": [
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/data/endpoints",
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/v1/data/maps/search",
            "query": {
              "limit": "2",
              "location": "Lisbon",
              "query": "coffee",
            },
            "status": 200,
          },
          {
            "headers": {
              "accept": "application/json",
              "authorization": "Bearer <secret:demo-key>",
            },
            "method": "GET",
            "path": "/api/maps/search",
            "query": {
              "limit": "2",
              "location": "Lisbon",
              "query": "coffee",
            },
            "status": 200,
          },
        ],
      }
    `);
  });

  it('refuses a method the endpoint does not take', async () => {
    expect(
      await t.snap('data_call', { endpoint: 'crawler', method: 'GET', input: {} }),
    ).toMatchInlineSnapshot(`
      {
        "result": {
          "content": [
            {
              "text": "Error (invalid_input): crawler accepts POST only, not GET.
      Fix: Call it with method POST (or leave method out); nothing was sent.",
              "type": "text",
            },
          ],
          "isError": true,
        },
        "sent": [],
      }
    `);
  });
});
