// The server's own hit and miss counters (INFO stats keyspace_hits / keyspace_misses): one lookup per key a read
// asked for, the truth the engine's hits and misses are held against.
import type { Redis } from 'ioredis';

export async function keyspaceCounts(redis: Pick<Redis, 'info'>): Promise<{ hits: number; misses: number }> {
  const stats = await redis.info('stats');
  const field = (name: string): number => Number(new RegExp(`${name}:(\\d+)`).exec(stats)![1]);
  return { hits: field('keyspace_hits'), misses: field('keyspace_misses') };
}
