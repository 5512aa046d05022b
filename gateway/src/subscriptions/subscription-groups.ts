import type { CloudEvent } from '@coperto/bus';
import {
  createSourceEventStream,
  execute as graphqlExecute,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { isEventStream, type EventStream } from './event-stream.js';
import { nextPayloadJson } from './next-frame.js';
import { resumePoint, type ResumePoint } from './resume-point.js';
import { resumeMember, type Replayer } from './resume-replay.js';
import { createResumeSeam, type ResumeSeam } from './resume-seam.js';
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
   * subscription, one execution per event) when it is the first. A subscription with `after` (resume-point.ts)
   * joins the group of the same subscription without it and first gets what it missed (resume-replay.ts).
   * Resolves to the membership, or to the errors result when the subscription cannot start (e.g. bad
   * variables, or `after` that cannot be resumed from).
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
  /** Reads what a subscription with `after` missed. Without it, every `after` is refused (RELOAD_REQUIRED). */
  replay?: Replayer;
}

/**
 * The group key: what the events' execution depends on. Variables as sent (key order included); `after` left
 * out, so subscriptions resuming from different events share a group.
 */
export function groupKey(
  request: GroupRequest,
  resume: ResumePoint = resumePoint(request.document, request.variableValues),
): string {
  return JSON.stringify([
    request.tenantId,
    resume.keyDocument,
    request.operationName ?? null,
    resume.keyVariables,
  ]);
}

interface Group {
  readonly members: Set<Member>;
  /** Resolves to undefined once the source stream is open, or to the errors result that refused it. */
  readonly opened: Promise<ExecutionResult | undefined>;
  /** The source stream once opened (what a member's replay reads). */
  readonly source: EventStream | undefined;
  /** One event's `next` payload (the group's execution, serialized). */
  payloadOf(event: unknown): Promise<string>;
  close(): void;
}

interface Member {
  readonly subscriber: GroupSubscriber;
  /** Set while the member resumes: live events wait behind its replay. */
  readonly seam: ResumeSeam | undefined;
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

    const payloadOf = async (event: unknown) => nextPayloadJson(await execute({ ...args, rootValue: event }));
    const pump = async (events: AsyncIterator<unknown>) => {
      try {
        for (;;) {
          const next = await events.next();
          if (next.done || closed) break;
          const payload = await payloadOf(next.value);
          for (const member of members) {
            try {
              if (member.seam) member.seam.live(payload, next.value as CloudEvent);
              else member.subscriber.deliver(payload);
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
      payloadOf,
      get source() {
        return isEventStream(source) ? source : undefined;
      },
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
    let resume: ResumePoint;
    try {
      resume = resumePoint(request.document, request.variableValues);
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [error] };
      throw error;
    }
    const key = groupKey(request, resume);
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
      seam: resume.after === undefined ? undefined : createResumeSeam((payload) => deliverSafely(payload)),
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
    const deliverSafely = (payload: string) => {
      try {
        subscriber.deliver(payload);
      } catch {
        member.end();
      }
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
    if (member.seam && resume.after !== undefined) {
      refused = await resumeMember({
        after: resume.after,
        source: joined.source,
        replay: options.replay,
        execute: joined.payloadOf,
        deliver: deliverSafely,
        seam: member.seam,
        ended: () => ended,
      });
    }
    if (refused) {
      member.end();
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
