import { Link } from 'react-router-dom';
import { ShieldIcon } from '../icons';

/** The brand name with its mark, linking home. */
export function BrandLink({ brandName, className = '' }: { brandName: string; className?: string }) {
  return (
    <Link to="/" className={`flex items-center gap-2 rounded-lg text-lg font-bold tracking-tight ${className}`}>
      <span className="inline-flex size-8 items-center justify-center rounded-lg bg-indigo-500 text-white">
        <ShieldIcon className="size-5" />
      </span>
      {brandName}
    </Link>
  );
}
