import * as Y from 'yjs';
import type { FileMap } from '../files.js';

/**
 * The shape of a workspace's shared document: one Y.Map named "files" whose values are one
 * Y.Text per file path. A client edits `doc.getMap('files').get('main.js')`; a new file is a new
 * Y.Text set under its path (two clients creating the same path at once: one of them wins).
 */
export const FILES = 'files';

export function filesMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(FILES);
}

/** The document's text files (values that are not a Y.Text are ignored). */
export function filesOf(doc: Y.Doc): FileMap {
  const files: FileMap = {};
  filesMap(doc).forEach((value, path) => {
    if (value instanceof Y.Text) files[path] = value.toString();
  });
  return files;
}

/**
 * Turns the document's files into `files` with the smallest edit per file (common prefix and
 * suffix kept), so collaborators' cursors and concurrent edits elsewhere in a file survive a
 * change made over the API. Returns the Yjs update it made (empty when nothing changed).
 */
export function applyFiles(doc: Y.Doc, files: FileMap): Uint8Array | undefined {
  const before = Y.encodeStateVector(doc);
  let changed = false;
  doc.transact(() => {
    const map = filesMap(doc);
    for (const path of [...map.keys()]) {
      if (!Object.hasOwn(files, path)) {
        map.delete(path);
        changed = true;
      }
    }
    for (const [path, content] of Object.entries(files)) {
      const text = map.get(path);
      if (!(text instanceof Y.Text)) {
        map.set(path, new Y.Text(content));
        changed = true;
        continue;
      }
      const old = text.toString();
      if (old === content) continue;
      let prefix = 0;
      const limit = Math.min(old.length, content.length);
      while (prefix < limit && old.charCodeAt(prefix) === content.charCodeAt(prefix)) prefix++;
      let suffix = 0;
      while (
        suffix < limit - prefix &&
        old.charCodeAt(old.length - 1 - suffix) === content.charCodeAt(content.length - 1 - suffix)
      )
        suffix++;
      const removed = old.length - prefix - suffix;
      if (removed > 0) text.delete(prefix, removed);
      const inserted = content.slice(prefix, content.length - suffix);
      if (inserted.length > 0) text.insert(prefix, inserted);
      changed = true;
    }
  });
  return changed ? Y.encodeStateAsUpdate(doc, before) : undefined;
}

/** A document holding exactly `files`: the first update of a workspace's shared document. */
export function seedUpdate(files: FileMap): Uint8Array {
  const doc = new Y.Doc();
  try {
    applyFiles(doc, files);
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}

/** A fresh document from stored updates (any order: Yjs merges them the same). */
export function docFrom(updates: readonly Uint8Array[]): Y.Doc {
  const doc = new Y.Doc();
  if (updates.length > 0) Y.applyUpdate(doc, Y.mergeUpdates(updates as Uint8Array[]));
  return doc;
}
