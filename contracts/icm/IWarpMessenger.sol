// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.37;

// The warp precompile at 0x0200…05 as Subnet-EVM and coreth expose it, as far as the messenger uses it.

/// A verified warp message whose payload is an AddressedCall: the chain it came from, the contract
/// that sent it there, and the bytes that contract passed to sendWarpMessage.
struct WarpMessage {
    bytes32 sourceChainID;
    address originSenderAddress;
    bytes payload;
}

interface IWarpMessenger {
    /// This chain's blockchain ID (the 32-byte ID the P-Chain gave it).
    function getBlockchainID() external view returns (bytes32 blockchainID);

    /// Logs SendWarpMessage with the unsigned message wrapping `payload` from msg.sender; returns its ID.
    function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);

    /// The message carried by the tx's warp predicate number `index`, and whether its signature verified.
    function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage calldata message, bool valid);
}
