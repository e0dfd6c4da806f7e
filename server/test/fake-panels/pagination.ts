import { detail, type PanelRequest, type PanelResponse } from './http.js';
import { toInt } from './validate.js';

/** A fastapi-pagination `Page` (links flavour): `{items,total,page,size,pages,links}`; size 1–100, default 50. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
  links: { first: string; last: string; self: string; next: string | null; prev: string | null };
}

export function readPageParams(req: PanelRequest): { page: number; size: number } | PanelResponse {
  const errors: Record<string, string> = {};
  const read = (key: 'page' | 'size', fallback: number, max?: number): number => {
    const raw = req.query.get(key);
    if (raw === null) return fallback;
    const value = toInt(raw);
    if (typeof value === 'string') errors[key] = value;
    else if (value < 1) errors[key] = 'Input should be greater than or equal to 1';
    else if (max !== undefined && value > max) errors[key] = `Input should be less than or equal to ${max}`;
    else return value;
    return fallback;
  };
  const page = read('page', 1);
  const size = read('size', 50, 100);
  return Object.keys(errors).length ? detail(422, errors) : { page, size };
}

export function paginate<T>(req: PanelRequest, all: T[], params: { page: number; size: number }): Page<T> {
  const { page, size } = params;
  const total = all.length;
  const pages = Math.ceil(total / size);
  const at = (n: number): string => {
    const query = new URLSearchParams(req.query);
    query.set('page', String(n));
    query.set('size', String(size));
    return `${req.path}?${query.toString()}`;
  };
  return {
    items: all.slice((page - 1) * size, page * size),
    total,
    page,
    size,
    pages,
    links: {
      first: at(1),
      last: at(Math.max(pages, 1)),
      self: at(page),
      next: page < pages ? at(page + 1) : null,
      prev: page > 1 ? at(page - 1) : null,
    },
  };
}
