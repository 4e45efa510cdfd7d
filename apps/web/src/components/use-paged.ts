// One page of a list held in memory, paged as the server tables are (DataTable's paging props).
import { useState } from 'react';

export function usePaged<T>(rows: T[]) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const last = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(page, last);
  return {
    rows: rows.slice((current - 1) * size, current * size),
    total: rows.length,
    page: current,
    size,
    onChange: (p: number, s: number) => {
      setPage(p);
      setSize(s);
    },
  };
}
