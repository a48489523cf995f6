import { ApiError, api, unwrap } from '../../api/client'

/** SIGNATURE_IMAGE_MAX_BYTES is the largest image the server keeps (512 KiB). */
export const SIGNATURE_IMAGE_MAX_BYTES = 512 * 1024

/** SIGNATURE_IMAGE_TYPES are the file types the server accepts; it re-encodes them as PNG. */
export const SIGNATURE_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp']

/**
 * fetchSignatureImage reads the signature image kept on the signed-in user's profile
 * (GET /api/v1/me/signature-image, permission signatures.manage) as a PNG blob, or
 * null when none is kept (204; 404 from servers before it). Other failures reject with an
 * ApiError.
 */
export async function fetchSignatureImage(signal?: AbortSignal): Promise<Blob | null> {
  try {
    const image: unknown = await unwrap(api.GET('/api/v1/me/signature-image', { parseAs: 'blob', signal }))
    return image instanceof Blob && image.size > 0 ? image : null
  } catch (cause) {
    if (cause instanceof ApiError && cause.status === 404) return null
    throw cause
  }
}

/**
 * saveSignatureImage keeps an image (PNG, JPEG or WebP as base64, no data: prefix) on the
 * profile, replacing any earlier one (PUT /api/v1/me/signature-image, 204). Not an image,
 * or one over 512 KiB or 2000×2000 pixels, rejects with 400 validation_failed.
 */
export async function saveSignatureImage(image: string): Promise<void> {
  await unwrap(api.PUT('/api/v1/me/signature-image', { body: { image } }))
}

/** deleteSignatureImage removes the kept image (DELETE /api/v1/me/signature-image, 204; 404 when none). */
export async function deleteSignatureImage(): Promise<void> {
  await unwrap(api.DELETE('/api/v1/me/signature-image'))
}

/** readAsBase64 reads a file as base64 without the data: prefix. */
export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsDataURL(file)
  })
}
