/**
 * What inspect_storage returns, as data: ops/storage.ts fills it, render/storage.ts prints it. Types only, in core so
 * the renderer depends down.
 */
import type { Finding } from '../findings.js';
import type { StorageDevice, StorageFacts, StorageProduct } from '../parse/storage/facts.js';

export interface StorageReport {
  target: string;
  origin: string;
  product: StorageProduct | null;
  summary: string;
  dirs: (StorageFacts['dirs'][number] & { from: string })[];
  devices: StorageDevice[];
  md: StorageFacts['md'];
  mounts: StorageFacts['mounts'];
  xfs: StorageFacts['xfs'];
  /** ScyllaDB's /etc/scylla.d/io_properties.yaml, when read (product scylla). */
  ioProperties?: StorageFacts['ioProperties'];
  findings: Finding[];
  checked: { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number }[];
  unread: StorageFacts['unread'];
  warnings: string[];
}
