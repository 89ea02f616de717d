import type { TraceNode } from './types';

export interface FlatNode {
  node: TraceNode;
  depth: number;
}

/** The tree in reading order, each node with its depth: what the tree list shows. */
export function flatten(nodes: TraceNode[], depth = 0, out: FlatNode[] = []): FlatNode[] {
  for (const node of nodes) {
    out.push({ node, depth });
    flatten(node.children, depth + 1, out);
  }
  return out;
}

/** What a node is called in the tree: a generation by its model, a span or trace by its name. */
export function nodeLabel(node: TraceNode): string {
  if (node.kind === 'generation' || node.kind === 'embedding') return node.model ?? node.name ?? node.kind;
  return node.name ?? node.kind;
}

/** The node shown first: the one asked for, else the first generation (its chat is what one looks for), else the first. */
export function initialNode(flat: FlatNode[], asked: string | undefined): TraceNode | undefined {
  return flat.find((f) => f.node.id === asked)?.node ?? flat.find((f) => f.node.kind === 'generation' || f.node.kind === 'embedding')?.node ?? flat[0]?.node;
}

/** The trace's end to end time: from its first event's start to the last event's end, in seconds. */
export function traceSeconds(flat: FlatNode[]): number | null {
  let start = Infinity;
  let end = -Infinity;
  for (const { node } of flat) {
    const t = Date.parse(node.timestamp);
    if (!Number.isFinite(t)) continue;
    start = Math.min(start, t);
    end = Math.max(end, t + (node.latency ?? 0) * 1000);
  }
  return Number.isFinite(start) && end >= start ? (end - start) / 1000 : null;
}
