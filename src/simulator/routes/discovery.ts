import {
  CatalogVoiceList,
  PublicModelList,
  ServiceEntryList,
  ServicesQuery,
  VoiceDetail,
} from '../../shared/api/discovery.js';
import { PublicError } from '../../shared/api/errors.js';
import { findVoice, listModels, publicService, SERVICES, VOICES } from '../catalog.js';
import type { RouteDef } from '../context.js';
import { notFound } from '../errors.js';
import { parseWith, sendJson } from '../http.js';

export const discoveryRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/services',
    routeClass: 'read',
    doc: {
      operationId: 'listServices',
      summary: 'Services visible to the identity, with their live contracts',
      tags: ['discovery'],
      query: ServicesQuery,
      responses: { 200: { description: 'ServiceEntryList', schema: ServiceEntryList } },
    },
    handler: async (rc) => {
      const query = parseWith(ServicesQuery, Object.fromEntries(rc.query));
      const data = SERVICES.filter(
        (entry) => !query.serviceKind || entry.serviceKind === query.serviceKind,
      ).map(publicService);
      sendJson(rc.res, 200, { object: 'list', data });
    },
  },
  {
    method: 'GET',
    path: '/models',
    routeClass: 'read',
    doc: {
      operationId: 'listModels',
      summary: 'Compatibility model list (use returned values only)',
      tags: ['discovery'],
      responses: { 200: { description: 'PublicModelList', schema: PublicModelList } },
    },
    handler: async (rc) => {
      sendJson(rc.res, 200, { object: 'list', data: listModels() });
    },
  },
  {
    method: 'GET',
    path: '/audio/voices',
    routeClass: 'read',
    doc: {
      operationId: 'listVoices',
      summary: 'Published speakers',
      tags: ['discovery'],
      responses: { 200: { description: 'CatalogVoiceList', schema: CatalogVoiceList } },
    },
    handler: async (rc) => {
      sendJson(rc.res, 200, { object: 'list', data: structuredClone(VOICES) });
    },
  },
  {
    method: 'GET',
    path: '/audio/voices/{voiceId}',
    routeClass: 'read',
    doc: {
      operationId: 'getVoice',
      summary: 'One published speaker',
      tags: ['discovery'],
      pathParams: ['voiceId'],
      responses: {
        200: { description: 'Voice detail', schema: VoiceDetail },
        404: { description: 'Unknown voice', schema: PublicError },
      },
    },
    handler: async (rc) => {
      const voice = findVoice(rc.params.voiceId ?? '');
      if (!voice) throw notFound('voice');
      sendJson(rc.res, 200, {
        ...structuredClone(voice),
        object: 'voice',
        sampleText: `Hello, I am ${voice.displayName}.`,
      });
    },
  },
];
