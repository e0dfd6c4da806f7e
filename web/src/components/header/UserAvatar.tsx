/** A round badge with the e-mail's first letter, upper-cased. */
export function UserAvatar({ email, className = 'size-8 text-sm' }: { email: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center rounded-full bg-indigo-500 font-semibold text-white ring-2 ring-white/20 ${className}`}
    >
      {email.charAt(0).toUpperCase()}
    </span>
  );
}
