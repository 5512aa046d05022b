import { Kind, parse } from 'graphql';
import { forbiddenRootFields, type Viewer } from '@coperto/auth';
import { ForbiddenError } from '@coperto/errors';
import { rootFieldsOf } from '../graphql/root-fields.js';
import { operationDocument, type RestRoute } from './route-table.js';

const rootFields = new WeakMap<RestRoute, string[]>();

/** The root fields of a route's operation (`Type.field`), read once per route. */
export function routeRootFields(route: RestRoute): string[] {
  let fields = rootFields.get(route);
  if (fields === undefined) {
    const document = parse(operationDocument(route));
    const operation = document.definitions.find(
      (d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === route.operation,
    );
    if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error(`No operation ${route.operation}`);
    fields = rootFieldsOf(operation, document);
    rootFields.set(route, fields);
  }
  return fields;
}

/**
 * 403 FORBIDDEN, before the body is read or validated (and before any cached answer), when a channel key or a guest
 * token calls a route its role does not allow (@coperto/auth SERVICE_ROLE_FIELDS). The same table refuses the
 * operation again inside the gateway (service-rights-plugin.ts), for /graphql.
 */
export function assertRouteAllowed(viewer: Viewer, route: RestRoute): void {
  if (viewer.grant === undefined) return;
  if (forbiddenRootFields(viewer, routeRootFields(route)).length > 0) {
    throw new ForbiddenError(`Not allowed with a ${viewer.grant.role} token: ${route.method} ${route.path}`);
  }
}
