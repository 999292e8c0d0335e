import { describe, expect, it } from 'vitest';
import { countPastPage } from './paging';

describe('countPastPage', () => {
  const counted = (total: number) => {
    let calls = 0;
    const count = async () => {
      calls++;
      return [{ total }];
    };
    return { count, calls: () => calls };
  };

  it('derives the total from a page that is not full, without counting', async () => {
    const query = counted(999);
    expect(await countPastPage(7, { limit: 50, offset: 0 }, query.count)).toBe(7);
    expect(await countPastPage(3, { limit: 50, offset: 100 }, query.count)).toBe(103);
    expect(await countPastPage(0, { limit: 50, offset: 0 }, query.count)).toBe(0);
    expect(query.calls()).toBe(0);
  });

  it('counts when the page is full or empty past the end', async () => {
    const query = counted(120);
    expect(await countPastPage(50, { limit: 50, offset: 0 }, query.count)).toBe(120);
    expect(await countPastPage(0, { limit: 50, offset: 500 }, query.count)).toBe(120);
    expect(query.calls()).toBe(2);
  });
});
