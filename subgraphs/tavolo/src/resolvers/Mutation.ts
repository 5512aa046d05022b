import type { TavoloContext } from '../context.js';
import type { LockInput, StatusInput, TavoloInput, TavoloPatch } from '../tavolo-service.js';

export const Mutation = {
  createTavolo: (_: unknown, args: { input: TavoloInput }, context: TavoloContext) =>
    context.tavoli.create(args.input),
  updateTavolo: (_: unknown, args: { id: string; input: TavoloPatch }, context: TavoloContext) =>
    context.tavoli.update(args.id, args.input),
  deleteTavolo: (_: unknown, args: { id: string }, context: TavoloContext) => context.tavoli.delete(args.id),
  setTavoloStatus: (_: unknown, args: { id: string; input: StatusInput }, context: TavoloContext) =>
    context.tavoli.setStatus(args.id, args.input),
  lockTavolo: (_: unknown, args: { id: string; input: LockInput }, context: TavoloContext) =>
    context.tavoli.lock(args.id, args.input),
  unlockTavolo: (_: unknown, args: { id: string; input: { deviceId: string } }, context: TavoloContext) =>
    context.tavoli.unlock(args.id, args.input.deviceId),
  forceUnlockTavolo: (_: unknown, args: { id: string }, context: TavoloContext) =>
    context.tavoli.forceUnlock(args.id),
};
