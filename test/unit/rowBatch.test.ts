/** Rows for a panel gathered into one message a list: a row updated twice goes once, as it is last; dropped rows do not go. */
import * as assert from 'assert';
import { RowBatch } from '../../src/core/liveView/rowBatch';
import type { HostToPanel, NetworkRow } from '../../src/protocol/panelMessages';

const request = (seq: number, status: number): NetworkRow => ({
  seq,
  id: `r${seq}`,
  method: 'GET',
  url: `http://127.0.0.1/${seq}`,
  resourceType: 'fetch',
  status,
  time: 0,
});

describe('rows gathered for a panel', () => {
  it('sends one message a list, each row once as it is last, without rows dropped meanwhile', async () => {
    const sent: HostToPanel[] = [];
    const batch = new RowBatch(message => sent.push(message), 10);
    batch.add({ type: 'network', rows: [request(1, 0)], dropBefore: 0 });
    batch.add({ type: 'network', rows: [request(2, 0)], dropBefore: 0 });
    batch.add({ type: 'console', rows: [{ seq: 1, level: 'info', text: 'hi', time: 0 }], dropBefore: 0 });
    batch.add({ type: 'network', rows: [request(1, 200)], dropBefore: 0 });
    batch.add({ type: 'network', rows: [request(3, 0)], dropBefore: 2 });
    assert.deepStrictEqual(sent, [], 'nothing goes at once');
    await new Promise(resolve => setTimeout(resolve, 30));
    assert.deepStrictEqual(sent, [
      { type: 'network', rows: [request(2, 0), request(3, 0)], dropBefore: 2 },
      { type: 'console', rows: [{ seq: 1, level: 'info', text: 'hi', time: 0 }], dropBefore: 0 },
    ]);
  });

  it('flushes before another message and sends nothing gathered once a snapshot replaces it', async () => {
    const sent: HostToPanel[] = [];
    const batch = new RowBatch(message => sent.push(message), 10);
    batch.add({ type: 'activity', rows: [], dropBefore: 0 });
    batch.flush();
    assert.strictEqual(sent.length, 1);
    batch.add({ type: 'network', rows: [request(5, 0)], dropBefore: 0 });
    batch.clear();
    await new Promise(resolve => setTimeout(resolve, 30));
    assert.strictEqual(sent.length, 1);
  });
});
