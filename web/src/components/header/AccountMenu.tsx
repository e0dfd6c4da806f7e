import type { Me } from '../../../../shared/auth.js';
import { ChevronDownIcon } from '../icons';
import { DropdownMenu, MenuButton, MenuGroup, MenuLink } from './DropdownMenu';
import { UserAvatar } from './UserAvatar';

interface AccountMenuProps {
  user: Me;
  onSignOut: () => void;
}

/** The signed-in 'My Account' dropdown. */
export function AccountMenu({ user, onSignOut }: AccountMenuProps) {
  return (
    <DropdownMenu
      align="right"
      panelClassName="w-64"
      triggerLabel="My Account"
      triggerClassName="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-indigo-100 hover:bg-white/10 hover:text-white"
      trigger={
        <>
          <UserAvatar email={user.email} />
          <span className="hidden lg:inline">My Account</span>
          <ChevronDownIcon className="size-4" />
        </>
      }
    >
      <MenuGroup label={<span className="block truncate normal-case tracking-normal text-slate-600">{user.email}</span>}>
        {user.role === 'admin' && (
          <>
            <MenuLink to="/admin">Admin Panel</MenuLink>
            <MenuLink to="/create">Create Account</MenuLink>
          </>
        )}
        <div role="separator" className="my-1 border-t border-slate-100" />
        <MenuButton onSelect={onSignOut}>Sign Out</MenuButton>
      </MenuGroup>
    </DropdownMenu>
  );
}
