/**
 * Public IDs that reveal nothing: {@link dev.idgen.forms.publicid.PublicIdCodec} turns an internal ID into an 18
 * character URL-safe string with NIST FF1 format-preserving encryption and an integrity check, and back;
 * {@link dev.idgen.forms.publicid.PublicIdForm} is a generator's IDs in that form.
 */
package dev.idgen.forms.publicid;
