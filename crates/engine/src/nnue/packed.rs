//! The net file's packed form, which the browser downloads: the same bytes, read as little-endian
//! 16-bit words, each word zigzag-coded (0, −1, 1, −2, … become 0, 1, 2, 3, …) and every word's low
//! byte stored before any high byte. The weights are small, so nearly all high bytes are zero and
//! gzip, as servers send the file, packs them into almost nothing: the built-in net is 93 KB
//! gzipped this way against 123 KB as it is. [`super::Network::from_bytes`] reads either form.
//!
//! Layout: [`MAGIC_PACKED`], the length of the net file it packs (u32 LE, even), then that many
//! bytes: the words' low bytes, then their high bytes.

/// Magic bytes of a packed net file.
pub const MAGIC_PACKED: [u8; 8] = *b"HSTNNUEZ";
/// Header length of a packed net file: magic and the packed file's length.
const HEADER: usize = 12;
/// The longest net file packed or unpacked (a net of 4,096 hidden units, the most a file may have, is
/// about 6.3 MB): a damaged length cannot make the reader allocate more.
const MAX_LEN: usize = 16 << 20;

/// `file` (a net file, or any bytes of even length up to 16 MiB) packed.
pub fn pack(file: &[u8]) -> Result<Vec<u8>, String> {
    if !file.len().is_multiple_of(2) || file.len() > MAX_LEN {
        return Err(format!("net: {} bytes cannot be packed (an even length up to {MAX_LEN} is)", file.len()));
    }
    let words = file.len() / 2;
    let mut out = vec![0u8; HEADER + file.len()];
    out[..8].copy_from_slice(&MAGIC_PACKED);
    out[8..HEADER].copy_from_slice(&(file.len() as u32).to_le_bytes());
    let (low, high) = out[HEADER..].split_at_mut(words);
    for (i, pair) in file.chunks_exact(2).enumerate() {
        let w = i16::from_le_bytes([pair[0], pair[1]]);
        let z = ((w << 1) ^ (w >> 15)) as u16;
        low[i] = z as u8;
        high[i] = (z >> 8) as u8;
    }
    Ok(out)
}

/// The net file that `packed` packs; an error that says what is wrong when it is cut short or padded.
pub fn unpack(packed: &[u8]) -> Result<Vec<u8>, String> {
    if packed.get(..8) != Some(&MAGIC_PACKED[..]) {
        return Err("net: not a packed net (no HSTNNUEZ header)".into());
    }
    let len = packed
        .get(8..HEADER)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        .ok_or("net: the packed net's header is cut short")?;
    if !len.is_multiple_of(2) || len > MAX_LEN {
        return Err(format!("net: the packed net claims {len} bytes (an even length up to {MAX_LEN} is valid)"));
    }
    let body = &packed[HEADER..];
    if body.len() != len {
        return Err(format!("net: the packed net holds {} bytes after its header, expected {len}", body.len()));
    }
    let (low, high) = body.split_at(len / 2);
    let mut file = Vec::with_capacity(len);
    for (&lo, &hi) in low.iter().zip(high) {
        let z = u16::from_le_bytes([lo, hi]);
        let w = (z >> 1) as i16 ^ -((z & 1) as i16);
        file.extend_from_slice(&w.to_le_bytes());
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    #[test]
    fn any_even_bytes_pack_and_unpack_to_themselves() {
        let mut rng = Rng::new(5);
        for len in [0, 2, 4, 10, 1000] {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let packed = pack(&bytes).unwrap();
            assert_eq!(packed.len(), HEADER + len);
            assert_eq!(unpack(&packed).unwrap(), bytes, "{len}");
        }
        // Every word, extremes included.
        let all: Vec<u8> = (0..=u16::MAX).flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(unpack(&pack(&all).unwrap()).unwrap(), all);
    }

    #[test]
    fn small_words_have_zero_high_bytes() {
        let words: [i16; 6] = [0, -1, 1, -2, 127, -128];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let packed = pack(&bytes).unwrap();
        assert_eq!(&packed[HEADER..HEADER + 6], &[0, 1, 2, 3, 254, 255]);
        assert_eq!(&packed[HEADER + 6..], &[0; 6]);
    }

    #[test]
    fn bad_packed_files_are_refused_with_a_reason() {
        let packed = pack(&[1, 2, 3, 4]).unwrap();
        assert!(pack(&[1, 2, 3]).unwrap_err().contains("cannot be packed"));
        assert!(unpack(b"HSTNNUE3").unwrap_err().contains("no HSTNNUEZ"));
        assert!(unpack(&packed[..10]).unwrap_err().contains("header is cut short"));
        assert!(unpack(&packed[..packed.len() - 1]).unwrap_err().contains("expected 4"));
        let mut longer = packed.clone();
        longer.push(0);
        assert!(unpack(&longer).unwrap_err().contains("holds 5 bytes"));
        let mut odd = packed.clone();
        odd[8] = 3;
        assert!(unpack(&odd).unwrap_err().contains("claims 3 bytes"));
        let mut huge = packed;
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unpack(&huge).unwrap_err().contains("claims"));
    }
}
