/** A round badge with the e-mail's first letter, upper-cased. */
export function UserAvatar({ name, className = 'size-8 text-sm' }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center rounded-full bg-indigo-500 font-semibold text-white ring-2 ring-white/20 ${className}`}
    >
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
