import type { FastifyReply } from 'fastify';

/** Adds `field` to the answer's `Vary`, keeping what it already names (`Origin`, …); `*` already covers it. */
export function varyOn(reply: FastifyReply, field: string): void {
  const current = String(reply.getHeader('vary') ?? '');
  const fields = current
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (fields.includes('*') || fields.some((name) => name.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...fields, field].join(', '));
}
