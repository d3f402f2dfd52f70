//! What the crate's CSV files share: numbers written with fixed decimals (so identical
//! runs give identical files), a row type's column names, and one way to write a file.
//! Each file format is one serde row type; its field names are its columns.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A number written with `DECIMALS` decimals, and read back as any number.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fixed<const DECIMALS: usize>(pub f64);

impl<const DECIMALS: usize> Serialize for Fixed<DECIMALS> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{:.*}", DECIMALS, self.0))
    }
}

impl<'de, const DECIMALS: usize> Deserialize<'de> for Fixed<DECIMALS> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f64::deserialize(deserializer).map(Fixed)
    }
}

/// The columns a row type writes, in order: the header the csv crate derives from its
/// fields, for files whose header is built from several row types or written apart.
pub fn column_names<T: Serialize>(row: &T) -> Vec<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .serialize(row)
        .expect("a row of plain fields serialises");
    let bytes = writer
        .into_inner()
        .expect("writing to memory does not fail");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(bytes.as_slice());
    let header = reader.records().next();
    let header = header.expect("a row type has named fields");
    let header = header.expect("the csv crate reads what it wrote");
    header.iter().map(str::to_string).collect()
}

/// A CSV file's text: `header`, then `rows`, with `quoting` for the rows (the header's
/// names are never quoted).
pub fn csv_text<T: Serialize>(
    header: &[String],
    rows: impl IntoIterator<Item = T>,
    quoting: csv::QuoteStyle,
) -> String {
    let mut head = csv::Writer::from_writer(Vec::new());
    head.write_record(header)
        .expect("writing to memory does not fail");
    let bytes = head.into_inner().expect("writing to memory does not fail");
    let mut body = csv::WriterBuilder::new()
        .has_headers(false)
        .quote_style(quoting)
        .from_writer(bytes);
    for row in rows {
        body.serialize(row)
            .expect("a row of plain fields serialises");
    }
    let bytes = body.into_inner().expect("writing to memory does not fail");
    String::from_utf8(bytes).expect("CSV of strings is UTF-8")
}
