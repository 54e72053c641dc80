import type { RecordType } from '@wrs/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApiProblem } from '../../../shared/problems';
import { signOutIfUnauthorized } from '../../components/session-expiry';
import { useConsole } from '../../console-context';
import type { BoardRecord, BoardView } from './board-types';
import { fetchViewPage } from './fetch-view-page';

export interface BoardColumn {
  view: BoardView;
  records: BoardRecord[];
  nextCursor: string | undefined;
  problem: ApiProblem | undefined;
  loadingMore: boolean;
}

/** The board's columns, one per view of the type, each with its first page of records. */
export function useBoardColumns(type: RecordType) {
  const console = useConsole();
  const [columns, setColumns] = useState<BoardColumn[]>();
  // Answers of an older load (a reload started meanwhile) are dropped.
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    const pages = await Promise.all(type.views.map((view) => fetchViewPage(console.client, type, view.id)));
    if (mine !== generation.current) return;
    if (pages.some((page) => signOutIfUnauthorized(console, page))) return;
    setColumns(
      type.views.map((view, index) => {
        const page = pages[index]!;
        return page.ok
          ? { view, records: page.data.records, nextCursor: page.data.nextCursor, problem: undefined, loadingMore: false }
          : { view, records: [], nextCursor: undefined, problem: page.problem, loadingMore: false };
      }),
    );
  }, [console, type]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const update = (viewId: string, change: (column: BoardColumn) => BoardColumn) =>
    setColumns((previous) => previous?.map((column) => (column.view.id === viewId ? change(column) : column)));

  const loadMore = useCallback(
    async (column: BoardColumn) => {
      if (!column.nextCursor) return;
      const mine = generation.current;
      update(column.view.id, (c) => ({ ...c, loadingMore: true }));
      const page = await fetchViewPage(console.client, type, column.view.id, column.nextCursor);
      if (mine !== generation.current || signOutIfUnauthorized(console, page)) return;
      update(column.view.id, (c) =>
        page.ok
          ? { ...c, records: [...c.records, ...page.data.records], nextCursor: page.data.nextCursor, problem: undefined, loadingMore: false }
          : { ...c, problem: page.problem, loadingMore: false },
      );
    },
    [console, type],
  );

  return { columns, reload, loadMore };
}
