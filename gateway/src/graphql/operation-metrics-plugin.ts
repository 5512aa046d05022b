import type { ApolloServerPlugin } from '@apollo/server';

/** Called once per operation the gateway answered (REST routes run named operations, so they count too). */
export type OperationObserver = (
  operationName: string | null,
  outcome: 'success' | 'error',
  durationMs: number,
) => void;

/**
 * Counts every operation Apollo Server answers, by name and outcome (`error` when the response carries errors,
 * also partial ones), for `graphql_operations_total`, and its duration (`graphql_operation_duration_seconds`).
 */
export function operationMetricsPlugin(observe: OperationObserver): ApolloServerPlugin {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operationName, response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          observe(
            operationName ?? null,
            errors && errors.length > 0 ? 'error' : 'success',
            performance.now() - started,
          );
        },
      };
    },
  };
}
