import { Link } from 'react-router-dom';
import { PLATFORMS, PLATFORM_NAMES } from '../../../../shared/platforms.js';

/** A row of chips linking to every platform's download page. */
export function PlatformLinks() {
  return (
    <ul className="mt-3 flex flex-wrap gap-2">
      {PLATFORMS.map((platform) => (
        <li key={platform}>
          <Link
            to={`/download/${platform}`}
            className="inline-block rounded-full bg-indigo-50 px-3 py-1 text-sm font-semibold text-indigo-800 hover:bg-indigo-100"
          >
            {PLATFORM_NAMES[platform]}
          </Link>
        </li>
      ))}
    </ul>
  );
}
