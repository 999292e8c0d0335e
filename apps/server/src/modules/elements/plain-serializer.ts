/**
 * Response serialiser of the catalogue's large lists (element lists, the allergens table):
 * plain `JSON.stringify`, set as the route's `serializerCompiler` (a Fastify route option)
 * in place of fastify-type-provider-zod's, which encodes every item through zod first
 * (about an eighth of a 2 000-item list's cost, docs/scaling.md "Catalogue"). The route keeps
 * its zod response schema for the OpenAPI document; the items are built in that schema's
 * shape and key order (elements.service.ts `listItem`, allergens.service.ts), so the JSON is
 * the same as zod's would be.
 */
export const plainJsonSerializer = () => (data: unknown) => JSON.stringify(data);
