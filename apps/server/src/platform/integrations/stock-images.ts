/**
 * Stock image search (spec 001 §2.5, §7): search by text, then the picked image is downloaded
 * and stored as the element's illustration. Without a configured provider the search is
 * disabled (`configured: false`) and the web app says so.
 */
export type StockImage = { id: string; thumbnail_url: string; url: string };
export type DownloadedImage = { data: Buffer; contentType: string };

export type StockImages = {
  configured: boolean;
  search(query: string): Promise<StockImage[]>;
  /** Downloads one image the provider returned; refuses any other address. */
  download(url: string): Promise<DownloadedImage>;
};

/** No provider: searches answer nothing and downloads are refused. */
export function createDisabledStockImages(): StockImages {
  return {
    configured: false,
    search: async () => [],
    download: async () => {
      throw new Error('No stock image provider is configured');
    },
  };
}
