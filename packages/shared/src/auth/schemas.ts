import { z } from 'zod';
import { passwordMaxLength, roles } from './constants';

export const roleSchema = z.enum(roles);

/** Trimmed, lowercased, valid e-mail (spec: e-mail lowercased at login and registration). */
export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

export const passwordSchema = z.string().min(1).max(passwordMaxLength);
export const nameSchema = z.string().trim().min(1).max(100);
export const phoneSchema = z.string().trim().min(1).max(40);
export const idSchema = z.uuid();

/** An invitation link's single-use token (`?invitation=`): store ownership or database manager. */
export const invitationTokenSchema = z.string().min(1).max(200);

export const loginBodySchema = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  /** Signing in from an invitation link accepts it for this account. */
  invitation: invitationTokenSchema.optional(),
});
/** POST /api/auth/invitation: the signed-in holder accepts an invitation link. */
export const acceptInvitationBodySchema = z.strictObject({ invitation: invitationTokenSchema });
export type LoginBody = z.infer<typeof loginBodySchema>;

/** POST /api/auth/signup: public registration (spec 000 §7). Ids are null; role customer. */
export const signupBodySchema = z.strictObject({
  name: nameSchema,
  surname: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  phone: phoneSchema,
  distributorId: z.null().optional(),
  databaseId: z.null().optional(),
  storeId: z.null().optional(),
  role: z.literal('customer').optional(),
  /** The single-use token of a store-owner invitation link (`?invitation=`). */
  invitation: z.string().min(1).max(200).optional(),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

export const signupResponseSchema = z.object({ status: z.literal('ok'), token: z.string() });

/** POST /api/auth/registerAccount: admin / distributor create an account. */
export const registerAccountBodySchema = z.strictObject({
  name: nameSchema,
  surname: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  phone: z.string().trim().max(40).default(''),
  distributorId: idSchema.nullable().optional(),
  databaseId: idSchema.nullable().optional(),
  storeId: idSchema.nullable().optional(),
  role: z.enum(['manager', 'customer', 'distributor']),
});
export type RegisterAccountBody = z.infer<typeof registerAccountBodySchema>;

/** POST /api/auth: exchange a login token for a session. */
export const tokenSignInBodySchema = z.strictObject({ token: z.string().min(1).max(200) });

/** POST /api/auth/createToken. */
export const createTokenBodySchema = z.strictObject({ UId: idSchema });
export const createTokenResponseSchema = z.object({ token: z.string() });

export const forgotPasswordBodySchema = z.strictObject({ email: emailSchema });
export const resetPasswordBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  password: passwordSchema,
  confirmation: passwordSchema,
});
/** The current password is asked first: a session alone (a login token's) cannot change it. */
export const changePasswordBodySchema = z.strictObject({
  current_password: passwordSchema,
  password: z.string().max(passwordMaxLength),
  confirmation: z.string().max(passwordMaxLength),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const statusOkSchema = z.object({ status: z.literal('ok') });
export const csrfResponseSchema = z.object({ csrfToken: z.string() });
/** GET /api/demo: whether the published demo accounts exist (the web shows a banner). */
export const demoStatusResponseSchema = z.object({ hasDemoAccounts: z.boolean() });
export type DemoStatus = z.infer<typeof demoStatusResponseSchema>;
