import type { Database } from '../../../db/client';
import type { ChainKind } from '../chain';

/**
 * Where the chain's records of one kind live (issue 21): what the writer appends and what the
 * verifier rebuilds must be the same content, so both go through `contentOf`.
 */
export type ChainSource<Row = unknown> = {
  kind: ChainKind;
  /** The canonical content of one stored revision (the same object at append and at verify). */
  contentOf(row: Row): unknown;
  /** The stored revisions of these ids in this store, by record id (a missing id: deleted). */
  load(
    db: Pick<Database, 'select' | 'execute'>,
    storeId: string,
    recordIds: readonly string[],
  ): Promise<Map<string, Row>>;
  /**
   * The ids of every revision of this kind in the store written in [from, to): a revision the
   * chain does not cover was inserted behind the application's back.
   */
  list(
    db: Pick<Database, 'select' | 'execute'>,
    storeId: string,
    from: Date,
    to: Date,
  ): Promise<string[]>;
};
