// Fastify's own response serializers (fast-json-stringify), each built when
// its route first answers with that status instead of all at start: building
// every route's was a twentieth of a start, for routes a server may never
// answer. What each serializer writes is unchanged.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

export const buildSerializerOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ReturnType<ReturnType<SerializerFactory>> | null = null;
    return (document) => (serialize ??= compile(route))(document);
  };
};
