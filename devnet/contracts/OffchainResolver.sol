// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// The name zone's resolver on the devnet (ENSIP-10 + EIP-3668, the ENS offchain-resolver
// scheme, written for Latch): `resolve` sends every query to the Latch gateway with an
// `OffchainLookup` revert, and `resolveWithProof` accepts the gateway's answer only when one of
// the trusted signers signed it for this resolver and this request, and it has not expired.
// The digest is the gateway's (latch-core's `ccip::signature_hash`):
// keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(callData) ‖ keccak256(result)).

interface IResolverService {
    function resolve(bytes calldata name, bytes calldata data)
        external
        view
        returns (bytes memory result, uint64 expires, bytes memory sig);
}

contract OffchainResolver {
    /// EIP-3668: the client asks `urls` and calls `callbackFunction(response, extraData)`.
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    /// The answer's signer is not trusted (a forged or foreign answer).
    error UntrustedSigner(address signer);
    /// The answer's validity ended.
    error AnswerExpired(uint64 expires);
    /// The signature is not 65 bytes with a low `s`.
    error MalformedSignature();

    string public url;
    mapping(address => bool) public signers;

    constructor(string memory url_, address[] memory signers_) {
        url = url_;
        for (uint256 i = 0; i < signers_.length; i++) {
            signers[signers_[i]] = true;
        }
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // ERC-165 and ENSIP-10's IExtendedResolver (`resolve(bytes,bytes)`).
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x9061b923;
    }

    /// ENSIP-10: any record of any name under the zone, answered by the gateway.
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        bytes memory callData = abi.encodeCall(IResolverService.resolve, (name, data));
        string[] memory urls = new string[](1);
        urls[0] = url;
        revert OffchainLookup(address(this), urls, callData, this.resolveWithProof.selector, callData);
    }

    /// The callback: the gateway's `abi.encode(result, expires, sig)` checked against `extraData`
    /// (the request sent); returns the resolver call's ABI-encoded result.
    function resolveWithProof(bytes calldata response, bytes calldata extraData) external view returns (bytes memory) {
        (bytes memory result, uint64 expires, bytes memory sig) = abi.decode(response, (bytes, uint64, bytes));
        if (expires < block.timestamp) revert AnswerExpired(expires);
        bytes32 digest = keccak256(
            abi.encodePacked(hex"1900", address(this), expires, keccak256(extraData), keccak256(result))
        );
        address signer = recover(digest, sig);
        if (!signers[signer]) revert UntrustedSigner(signer);
        return result;
    }

    function recover(bytes32 digest, bytes memory sig) internal pure returns (address) {
        if (sig.length != 65) revert MalformedSignature();
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(sig, 32))
            s := mload(add(sig, 64))
            v := byte(0, mload(add(sig, 96)))
        }
        if (v < 27) v += 27;
        // EIP-2: only the lower half of `s`, so a signature has one form.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) revert MalformedSignature();
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert MalformedSignature();
        return signer;
    }
}
