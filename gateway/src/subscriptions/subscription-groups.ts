import {
  createSourceEventStream,
  execute as graphqlExecute,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { nextPayloadJson } from './next-frame.js';
import type { SubscriptionContext } from './subscription-context.js';

/** Runs a subscription's selection for one source event (graphql's `execute`, or a spy in tests). */
export type Executor = (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>;

/** One subscription of one socket, as the group sees it. */
export interface GroupSubscriber {
  /** Sends the shared `next` payload (the JSON of one ExecutionResult) on this subscription. Must not throw. */
  deliver(payloadJson: string): void;
  /** The group fell behind the bus: this subscriber missed events (the socket is closed with 4429). */
  fellBehind(): void;
  /** Registers what ends the membership when the socket goes (its budget's `track`); returns the unregistration. */
  track(stop: () => void): () => void;
}

/** What subscribing asks for: the operation, its variables, and the tenant of the socket's verified token. */
export interface GroupRequest {
  tenantId: string;
  document: DocumentNode;
  variableValues?: Readonly<Record<string, unknown>> | null | undefined;
  operationName?: string | null | undefined;
}

/**
 * A subscriber's membership, as graphql-ws iterates it: it yields nothing (the group writes the `next`
 * frames) and ends when the subscriber leaves (`return()`: complete or socket closed) or the group ends.
 */
export interface Membership extends AsyncIterableIterator<ExecutionResult> {
  return(): Promise<IteratorResult<ExecutionResult>>;
}

export interface SubscriptionGroups {
  /**
   * Joins the group of (tenant, normalized document, operation name, variables), opening it (one bus
   * subscription, one execution per event) when it is the first. Resolves to the membership, or to the
   * errors result when the subscription cannot start (e.g. bad variables).
   */
  join(request: GroupRequest, subscriber: GroupSubscriber): Promise<Membership | ExecutionResult>;
  /** Groups open. */
  readonly size: number;
  /** Members of all groups. */
  readonly members: number;
}

export interface SubscriptionGroupsOptions {
  schema: GraphQLSchema;
  /** Default graphql's `execute`. */
  execute?: Executor;
}

/** The group key: what the events' execution depends on. Variables as sent (key order included). */
export function groupKey(request: GroupRequest): string {
  return JSON.stringify([
    request.tenantId,
    print(request.document),
    request.operationName ?? null,
    request.variableValues ?? {},
  ]);
}

interface Group {
  readonly members: Set<Member>;
  /** Resolves to undefined once the source stream is open, or to the errors result that refused it. */
  readonly opened: Promise<ExecutionResult | undefined>;
  close(): void;
}

interface Member {
  readonly subscriber: GroupSubscriber;
  end(): void;
}

/**
 * The subscription groups of one gateway process: every socket subscription with the same tenant, document,
 * operation and variables shares one group, which follows the bus once, executes the selection once per event
 * and serializes the result once; each member only frames that string with its own id and writes it to its
 * socket. So an event costs one execution per group, whatever the number of sockets. A group closes (and
 * releases its bus subscription) when its last member leaves.
 */
export function createSubscriptionGroups(options: SubscriptionGroupsOptions): SubscriptionGroups {
  const execute = options.execute ?? graphqlExecute;
  const groups = new Map<string, Group>();
  let memberCount = 0;

  const openGroup = (key: string, request: GroupRequest): Group => {
    const members = new Set<Member>();
    let source: AsyncIterator<unknown> | undefined;
    let closed = false;
    const contextValue: SubscriptionContext = {
      tenantId: request.tenantId,
      fellBehind: () => {
        for (const member of [...members]) member.subscriber.fellBehind();
      },
    };
    const args: ExecutionArgs = {
      schema: options.schema,
      document: request.document,
      variableValues: request.variableValues,
      operationName: request.operationName,
      contextValue,
    };

    const pump = async (events: AsyncIterator<unknown>) => {
      try {
        for (;;) {
          const next = await events.next();
          if (next.done || closed) break;
          const result = await execute({ ...args, rootValue: next.value });
          const payload = nextPayloadJson(result);
          for (const member of members) {
            try {
              member.subscriber.deliver(payload);
            } catch {
              // One broken socket never stops the group: that member leaves, the others go on.
              member.end();
            }
          }
        }
      } finally {
        // The source ended (the bus closed, or it overflowed): the members' subscriptions complete.
        for (const member of [...members]) member.end();
      }
    };

    const group: Group = {
      members,
      opened: (async () => {
        const stream = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in stream)) return stream;
        source = stream[Symbol.asyncIterator]();
        if (closed) void source.return?.();
        else void pump(source).catch(() => {});
        return undefined;
      })(),
      close() {
        if (closed) return;
        closed = true;
        if (groups.get(key) === group) groups.delete(key);
        void source?.return?.();
      },
    };
    return group;
  };

  const join = async (
    request: GroupRequest,
    subscriber: GroupSubscriber,
  ): Promise<Membership | ExecutionResult> => {
    const key = groupKey(request);
    let group = groups.get(key);
    if (!group) {
      group = openGroup(key, request);
      groups.set(key, group);
    }
    const joined = group;
    const waiters: Array<(result: IteratorResult<ExecutionResult>) => void> = [];
    let ended = false;
    let untrack = () => {};
    const member: Member = {
      subscriber,
      end() {
        if (ended) return;
        ended = true;
        untrack();
        memberCount--;
        joined.members.delete(member);
        if (joined.members.size === 0) joined.close();
        for (const waiter of waiters.splice(0)) waiter({ done: true, value: undefined });
      },
    };
    memberCount++;
    joined.members.add(member);
    untrack = subscriber.track(() => member.end());

    let refused: ExecutionResult | undefined;
    try {
      refused = await joined.opened;
    } catch (error) {
      // Invalid execution arguments (graphql's `subscribe` throws the same): graphql-ws closes with 4500.
      member.end();
      joined.close();
      throw error;
    }
    if (refused) {
      member.end();
      joined.close();
      return refused;
    }
    const membership: Membership = {
      next: () =>
        ended
          ? Promise.resolve({ done: true, value: undefined })
          : new Promise((resolve) => waiters.push(resolve)),
      return() {
        member.end();
        return Promise.resolve({ done: true, value: undefined });
      },
      throw(error?: unknown) {
        member.end();
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]: () => membership,
    };
    return membership;
  };

  return {
    join,
    get size() {
      return groups.size;
    },
    get members() {
      return memberCount;
    },
  };
}
