// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// Pulls approved tokens from several holders to one recipient in one transaction: a transfer with
/// several senders, for the transfer check's tests only.
contract Collector {
    function collect(address token, address[] calldata from, uint256[] calldata amounts, address to) external {
        require(from.length == amounts.length, "length mismatch");
        for (uint256 i = 0; i < from.length; i++) {
            require(IERC20(token).transferFrom(from[i], to, amounts[i]), "transfer failed");
        }
    }
}
