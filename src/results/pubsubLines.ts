// Pub/Sub lines under a run's table: what each subscriber group received against what its publishers' PUBLISH
// replies promised (lost messages), per channel, subscribers the server dropped, and messages nobody heard.
// Plain data: the CLI, the panel and the editor's summary show the same lines.
import type { LoadResult } from '../engine';
import { groupDigits } from '../scenario/numberText';

/** Channels named on a subscriber's line; the others are counted. */
const CHANNELS_SHOWN = 8;

export function pubsubLines(loads: readonly LoadResult[]): string[] {
  const lines: string[] = [];
  for (const load of loads) {
    const pubsub = load.pubsub;
    if (!pubsub) continue;
    if (pubsub.role === 'publisher') {
      if (pubsub.unheard)
        lines.push(
          `${load.test}: ${groupDigits(pubsub.unheard)} of ${groupDigits(pubsub.published ?? 0)} messages reached no subscriber (PUBLISH replied 0): nobody listened on their channel`,
        );
      continue;
    }
    const delivered = pubsub.delivered ?? 0;
    const promised =
      pubsub.expected === undefined
        ? "; the deliveries to expect were not counted (a publisher on a cluster does not sum PUBLISH's replies yet)"
        : ` of ${groupDigits(pubsub.expected)} the publishers' PUBLISH replies promised, ${groupDigits(pubsub.lost ?? 0)} lost`;
    lines.push(`${load.test}: ${groupDigits(delivered)} messages delivered (${groupDigits(Math.round(load.total.opsPerSec))}/s)${promised}`);
    const channels = Object.entries(pubsub.channels ?? {});
    if (channels.length > 0) {
      const shown = channels.slice(0, CHANNELS_SHOWN).map(([channel, count]) => `${channel} ${groupDigits(count)}`);
      const more = channels.length > CHANNELS_SHOWN ? `, and ${groupDigits(channels.length - CHANNELS_SHOWN)} more` : '';
      lines.push(`${load.test}: per channel: ${shown.join(', ')}${more}`);
    }
    if (pubsub.disconnected)
      lines.push(
        `${load.test}: the server closed ${groupDigits(pubsub.disconnected)} of ${groupDigits(load.connections.opened)} subscriber connections during the run — a subscriber that falls behind is dropped past \`client-output-buffer-limit pubsub\`; what they received before is counted`,
      );
    if (pubsub.resubscribed)
      lines.push(
        `${load.test}: ${groupDigits(pubsub.resubscribed)} shard channel subscriptions were made again at their slot's new master (the slot moved during the run); messages published there before are in the publishers' unheard count, not delivered`,
      );
    if (pubsub.unstamped)
      lines.push(
        `${load.test}: ${groupDigits(pubsub.unstamped)} messages did not start with a send stamp, so they are not in the latency — publish \`__now__\` first: \`PUBLISH channel __now__:__value__\``,
      );
    if (pubsub.clock === 'several-machines')
      lines.push(`${load.test}: the publish→receive latency compares the clocks of several machines (--shard): it is not a latency, only the counts are`);
  }
  return lines;
}
