import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * fastify's own response serializers (fast-json-stringify, from the routes' response schemas), each compiled on
 * the first response that needs it rather than when fastify registers the route: the REST facade's ≈ 100
 * response schemas are compiled by a process that answers few of them soon, and compiling them all took a
 * tenth of the process's CPU time to ready (docs/architecture.md, "Start-up"). The serialized bytes are the
 * same: the same compiler with the same options builds each serializer.
 */
export function lazySerializers(build: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: Serializer | undefined;
      return (document: unknown) => (serialize ??= compile(route))(document);
    };
  };
}

/** The fastify option that installs them. */
export const lazySerializerController = (): NonNullable<FastifyServerOptions['schemaController']> => ({
  compilersFactory: { buildSerializer: lazySerializers() },
});
