import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary';
}

export function Button({ variant = 'secondary', className, ...props }: ButtonProps) {
  const classes = ['latch-button', `latch-button--${variant}`, className].filter(Boolean).join(' ');
  return <button type="button" {...props} className={classes} />;
}
