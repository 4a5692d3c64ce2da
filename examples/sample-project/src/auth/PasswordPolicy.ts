/**
 * Password rules for local (non-SSO) accounts, from the user-auth requirements:
 * 12+ characters, not one of the 10k most common passwords, not containing the email
 * local part. No composition rules (NIST SP 800-63B).
 */
export interface PasswordCheck {
  ok: boolean;
  reasons: Array<'too_short' | 'too_common' | 'contains_email'>;
}

export class PasswordPolicy {
  constructor(private readonly commonPasswords: ReadonlySet<string>, private readonly minLength = 12) {}

  check(password: string, email: string): PasswordCheck {
    const reasons: PasswordCheck['reasons'] = [];
    if ([...password].length < this.minLength) reasons.push('too_short');
    if (this.commonPasswords.has(password.toLowerCase())) reasons.push('too_common');
    const localPart = email.split('@')[0]?.toLowerCase() ?? '';
    if (localPart.length >= 4 && password.toLowerCase().includes(localPart)) reasons.push('contains_email');
    return { ok: reasons.length === 0, reasons };
  }
}
