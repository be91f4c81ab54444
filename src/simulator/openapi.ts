import { z } from 'zod';
import * as api from '../shared/api/index.js';
import { APP_VERSION } from '../shared/app-version.js';
import type { RouteDef, RouteDoc } from './context.js';
import { scenariosOnRoute } from './scenarios.js';

type JsonSchema = Record<string, unknown>;

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const COMMON_READ_ERRORS: Record<string, string> = {
  '400': 'Invalid request',
  '401': 'Missing or unknown bearer token',
  '404': 'Unknown, or not owned by this identity and model scope',
  '429': 'Rate limited; honour Retry-After',
  '500': 'Internal error',
  '503': 'Temporarily unavailable; honour Retry-After',
  '504': 'Gateway timeout',
};

const COMMON_WRITE_ERRORS: Record<string, string> = {
  ...COMMON_READ_ERRORS,
  '402': 'Insufficient balance',
  '409': 'Idempotency conflict, or service not available',
  '413': 'Too large',
  '415': 'Unsupported media type',
  '422': 'Asset facts or specification rejected',
};

/** Registers every exported zod schema of src/shared/api under its export name. */
function buildRegistry(): { registry: z.core.$ZodRegistry<{ id: string }>; names: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, value] of Object.entries(api).sort(([a], [b]) => a.localeCompare(b))) {
    if (!(value instanceof z.ZodType) || names.has(value)) continue;
    registry.add(value, { id: name });
    names.set(value, name);
  }
  return { registry, names };
}

/** A generated JSON Schema without the root-only `$schema` and `$id` (for embedding in OpenAPI). */
export function stripRootKeywords(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function inline(schema: z.ZodType): JsonSchema {
  return stripRootKeywords(
    z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema,
  );
}

/**
 * The OpenAPI 3.1 document of what the simulator serves, generated from the same zod schemas
 * the routes validate with.
 */
export function buildOpenApiDocument(routes: readonly RouteDef[], serverUrl: string): JsonSchema {
  const { registry, names } = buildRegistry();
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(generated.schemas)) schemas[name] = stripRootKeywords(schema);
  const ref = (schema: z.ZodType): JsonSchema => {
    const name = names.get(schema);
    return name ? REF(name) : inline(schema);
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (!route.doc) continue;
    const doc: RouteDoc = route.doc;
    const parameters: JsonSchema[] = [];
    for (const name of doc.pathParams ?? []) {
      parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
    if (doc.query) {
      for (const [name, schema] of Object.entries(doc.query.shape)) {
        const field = schema as z.ZodType;
        parameters.push({
          name,
          in: 'query',
          required: !field.safeParse(undefined).success,
          schema: inline(field),
        });
      }
    }
    for (const header of doc.headers ?? []) {
      parameters.push({
        name: header.name,
        in: 'header',
        required: header.required,
        description: header.description,
        schema: { type: 'string' },
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(doc.responses)) {
      const entry: JsonSchema = { description: response.description };
      if (response.schema) {
        const content: Record<string, unknown> = { 'application/json': { schema: ref(response.schema) } };
        if (doc.operationId === 'createChatCompletion' && status === '200') {
          content['text/event-stream'] = {
            schema: {
              type: 'string',
              description: 'data: <ChatCompletionChunk JSON> lines, ending with data: [DONE]',
            },
          };
        }
        entry.content = content;
      } else if (route.method !== 'HEAD') {
        entry.content = {
          [response.contentType ?? 'application/octet-stream']: {
            schema: { type: 'string', contentMediaType: 'application/octet-stream' },
          },
        };
      }
      if (response.headers?.length) {
        entry.headers = Object.fromEntries(
          response.headers.map((h) => [
            h,
            {
              schema:
                h === 'Retry-After' ? { type: 'integer', minimum: 0 } : { type: 'string', format: 'uri' },
            },
          ]),
        );
      }
      responses[status] = entry;
    }
    const common = route.routeClass === 'read' ? COMMON_READ_ERRORS : COMMON_WRITE_ERRORS;
    for (const [status, description] of Object.entries(common)) {
      responses[status] ??= { description, content: { 'application/json': { schema: REF('PublicError') } } };
    }
    const operation: JsonSchema = {
      operationId: doc.operationId,
      summary: doc.summary,
      tags: doc.tags,
      parameters,
      responses,
      // The simulator's fault scenarios that change this operation's answer (see its README).
      'x-simulator-scenarios': scenariosOnRoute(route),
    };
    if (doc.requestBody) {
      operation.requestBody = {
        required: true,
        content: { [doc.requestBody.contentType]: { schema: ref(doc.requestBody.schema) } },
      };
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation;
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['discovery'],
      responses: {
        '200': {
          description: 'OpenAPI document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '401': {
          description: 'Missing or unknown bearer token',
          content: { 'application/json': { schema: REF('PublicError') } },
        },
      },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Public Model and Media API (Framewright local simulator)',
      description:
        'Local simulation of the hosted model gateway: same paths, request and response shapes, stable synthetic outputs, no credits. ' +
        'Scenario switch: X-Simulator-Scenario header or POST /_simulator/scenario. ' +
        'Each operation lists the scenarios that change its answer in x-simulator-scenarios: ' +
        'rate_limited, unavailable and gateway_timeout touch every operation; idempotency_conflict only ' +
        'operations with an Idempotency-Key; insufficient_balance only billed calls; invalid_request ' +
        'billed calls and the admission preview.',
      version: `1.0.0+framewright.${APP_VERSION}`,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Personal API key (simulator: the fixed local test token or a --token)',
        },
      },
    },
  };
}
