import { isStaff } from '../../../../shared/auth.js';
import { can } from '../../../../shared/staff.js';
import { useLingui } from '@lingui/react';
import type { Me } from '../../../../shared/auth.js';
import { ChevronDownIcon } from '../icons';
import { DropdownMenu, MenuButton, MenuGroup, MenuLink } from './DropdownMenu';
import { customerName } from './customer-name';
import { UserAvatar } from './UserAvatar';

interface AccountMenuProps {
  user: Me;
  onSignOut: () => void;
}

/** The signed-in 'My Account' dropdown. */
export function AccountMenu({ user, onSignOut }: AccountMenuProps) {
  const { _ } = useLingui();
  return (
    <DropdownMenu
      align="right"
      panelClassName="w-64"
      triggerLabel={_('header.myAccount')}
      triggerClassName="flex items-center gap-2 rounded-full py-1 pe-2 ps-1 text-sm font-medium text-indigo-100 hover:bg-white/10 hover:text-white"
      trigger={
        <>
          <UserAvatar name={customerName(user, _)} />
          <span className="hidden lg:inline">{_('header.myAccount')}</span>
          <ChevronDownIcon className="size-4" />
        </>
      }
    >
      <MenuGroup label={<span className="block truncate normal-case tracking-normal text-slate-600">{customerName(user, _)}</span>}>
        {isStaff(user.role) && <MenuLink to="/admin">{_('header.adminPanel')}</MenuLink>}
        {can(user.role, 'customers.write') && <MenuLink to="/create">{_('header.createAccount')}</MenuLink>}
        <div role="separator" className="my-1 border-t border-slate-100" />
        <MenuButton onSelect={onSignOut}>{_('header.signOut')}</MenuButton>
      </MenuGroup>
    </DropdownMenu>
  );
}
